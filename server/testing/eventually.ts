/**
 * The one polling helper of the tests: waits until a condition holds, checking it again and
 * again, and fails loudly after a bound. The bound only decides how long a broken test takes to
 * fail; nothing a test asserts depends on it, so a loaded machine makes a test slower, not red.
 * A check that throws counts as "not yet" (an expect() inside it), and its last error is what
 * the failure reports.
 */

type Falsy = null | undefined | false | 0 | '';

/**
 * The shortest a test's wait gives up after. A wait's bound only decides how long a broken test
 * takes to fail, so the tests' helpers raise any shorter bound to this: on a loaded machine
 * (`npm run test:busy`) a tight bound turns slowness into red. It stays under the 20 s test
 * timeout (vitest.config.ts), so a wait that never ends names what it waited for.
 */
export const TEST_WAIT_MS = 15_000;

/** A test helper's bound: what the call asked for, never less than TEST_WAIT_MS. */
export const testWait = (ms?: number): number => Math.max(ms ?? 0, TEST_WAIT_MS);

export interface EventuallyOptions {
  /** What is awaited, for the failure message. */
  what?: string;
  /** How long before giving up (default TEST_WAIT_MS). */
  timeoutMs?: number;
  /** Pause between checks (default 20 ms). */
  intervalMs?: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with the first truthy value `check` returns; rejects once `timeoutMs` has passed. */
export async function eventually<T>(
  check: () => T | Falsy | Promise<T | Falsy>,
  options: EventuallyOptions = {},
): Promise<T> {
  const { what = 'condition', timeoutMs = TEST_WAIT_MS, intervalMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as T;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`${what} did not hold within ${timeoutMs} ms (last check: ${detail})`);
    }
    await pause(intervalMs);
  }
}

/** Like eventually(), but answers whether the condition held instead of throwing. */
export async function holdsEventually(
  check: () => unknown,
  options: Omit<EventuallyOptions, 'what'> = {},
): Promise<boolean> {
  try {
    await eventually(check, options);
    return true;
  } catch {
    return false;
  }
}
