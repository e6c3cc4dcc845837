/**
 * One poll of the daemon's `current-app-status`, shared by every viewer: the dashboards, the STOP
 * and the self-test read the cached answer, and a change goes out once as an `apps` frame.
 *
 * Cadence: every 2 s. A crash then shows within about 2 s, well before anyone looks for it; the
 * daemon answers from memory (no subprocess, no disk), and one request each 2 s is nothing next to
 * the 30 Hz state stream on the same pool. Every app action re-reads at once, so the page follows
 * the operator's own clicks without waiting for the next tick.
 */
import type { CurrentApp } from '../contract/apps.ts';
import type { WireAppStatus } from '../daemon/apps-client.ts';

export const APP_STATUS_POLL_MS = 2000;

export interface StatusPollDeps {
  read(): Promise<WireAppStatus | null>;
  /** The current app changed (or the read started or stopped failing). */
  changed(): void;
  /** A run ended in a crash: its name and the daemon's error text. */
  crashed?(name: string, error: string): void;
  now?: () => number;
  everyMs?: number;
}

export interface StatusPoll {
  current(): CurrentApp | null;
  polledAt(): string | null;
  problem(): string | null;
  /**
   * Reads now, coalesced with a read in flight. `fresh` waits for that read and reads again: after
   * an action, a read begun before the daemon took it would answer with the state it replaced.
   */
  refresh(fresh?: boolean): Promise<CurrentApp | null>;
  /** The next run seen starts its uptime now (the cockpit just started or restarted it). */
  markStart(): void;
  start(): void;
  stop(): void;
}

export function errorLines(error: string | null): string[] {
  return (error ?? '').split('\n').filter((line) => line.trim() !== '');
}

export function createStatusPoll(deps: StatusPollDeps): StatusPoll {
  const now = deps.now ?? Date.now;
  let current: CurrentApp | null = null;
  let polledAt: string | null = null;
  let problem: string | null = null;
  let inFlight: Promise<CurrentApp | null> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let freshRun = false;

  const adopt = (wire: WireAppStatus | null): void => {
    const before = current;
    if (!wire) current = null;
    else {
      const name = wire.info.name;
      // A new run: another app, or the same one again after it ended, or one the cockpit (re)started.
      const sameRun =
        before !== null &&
        before.name === name &&
        !freshRun &&
        !(['done', 'error'].includes(before.state) && ['starting', 'running'].includes(wire.state));
      if (['starting', 'running'].includes(wire.state)) freshRun = false;
      current = {
        name,
        state: wire.state,
        error: wire.error,
        errorLines: errorLines(wire.error),
        since: sameRun && before ? before.since : new Date(now()).toISOString(),
      };
      if (wire.state === 'error' && before?.state !== 'error') deps.crashed?.(name, wire.error ?? '');
    }
    if (JSON.stringify(before) !== JSON.stringify(current)) deps.changed();
  };

  const refresh = (fresh = false): Promise<CurrentApp | null> => {
    if (fresh && inFlight) return inFlight.then(() => refresh());
    inFlight ??= deps
      .read()
      .then(
        (wire) => {
          const hadProblem = problem !== null;
          problem = null;
          polledAt = new Date(now()).toISOString();
          adopt(wire);
          if (hadProblem) deps.changed();
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          if (message !== problem) {
            problem = message;
            deps.changed();
          }
        },
      )
      .then(() => current)
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  return {
    current: () => current,
    polledAt: () => polledAt,
    problem: () => problem,
    refresh,
    markStart() {
      freshRun = true;
    },
    start() {
      if (timer) return;
      void refresh();
      timer = setInterval(() => void refresh(), deps.everyMs ?? APP_STATUS_POLL_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
