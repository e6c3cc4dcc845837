/**
 * Every delayed callback of one simulator goes through here, so close() can cancel them all and
 * no timer keeps a test process alive.
 */

export interface Timers {
  after(ms: number, fn: () => void): void;
  sleep(ms: number): Promise<void>;
  clear(): void;
}

export function createTimers(): Timers {
  const pending = new Set<NodeJS.Timeout>();
  let closed = false;
  const after = (ms: number, fn: () => void): void => {
    if (closed) return;
    const handle = setTimeout(() => {
      pending.delete(handle);
      fn();
    }, ms);
    pending.add(handle);
  };
  return {
    after,
    sleep: (ms) => new Promise((resolve) => after(ms, resolve)),
    clear() {
      closed = true;
      for (const handle of pending) clearTimeout(handle);
      pending.clear();
    },
  };
}
