/**
 * Keyframe requests from viewers, coalesced: a new viewer, a viewer dropped to the next
 * keyframe, or a browser's picture-loss indication each ask, and the robot hears at most one
 * request a second. A request inside the quiet second is not lost: one request goes out when
 * the second is over, however many came in it. Each request costs the robot's encoder a large
 * picture, so fifty viewers joining at once must not become fifty keyframes.
 */
import type { Schedule } from '../../perception/schedule.ts';

export interface KeyframeRequestOptions {
  /** Sends one picture-loss indication upstream. */
  send(): void;
  now(): number;
  schedule: Schedule;
  /** At most one request upstream per this many milliseconds (default 1000). */
  minIntervalMs?: number;
}

export interface KeyframeRequests {
  request(): void;
  /** Requests asked for by viewers, and requests sent upstream. */
  counts(): { asked: number; sent: number };
  stop(): void;
}

export function createKeyframeRequests(options: KeyframeRequestOptions): KeyframeRequests {
  const interval = options.minIntervalMs ?? 1000;
  let lastSent = -Infinity;
  let asked = 0;
  let sent = 0;
  let cancelPending: (() => void) | undefined;
  const sendNow = (): void => {
    cancelPending = undefined;
    lastSent = options.now();
    sent += 1;
    options.send();
  };
  return {
    request() {
      asked += 1;
      if (cancelPending) return;
      const wait = lastSent + interval - options.now();
      if (wait <= 0) sendNow();
      else cancelPending = options.schedule(sendNow, wait);
    },
    counts: () => ({ asked, sent }),
    stop() {
      cancelPending?.();
      cancelPending = undefined;
    },
  };
}
