/**
 * The periodic socket broadcast of both servers: desktop's /ws state and health frames
 * (server/desktop/app.ts) and wheeled's /ws/state frames (server/wheeled/state-socket.ts). Each
 * tick reads each feed once and hands its frame to the hub, which serialises it once for every
 * viewer. With no viewer on the path the ticker does not run at all (a cockpit at rest wakes for
 * nothing); the hub's count of the path's sockets starts and stops it. Time comes from the injected clock
 * (server/clock.ts), so tests move it by hand (server/testing/manual-clock.ts).
 */
import type { TimerClock } from '../clock.ts';
import type { WsHub } from './ws-hub.ts';

/** Past this much lateness the schedule restarts instead of bursting to catch up. */
const RESYNC_MS = 1000;

/**
 * Ticks on a fixed grid of deadlines rather than a fixed interval: on a loaded machine a late
 * tick is followed by an early one, so viewers still get `hz` frames per second on average.
 */
export function startTicker(
  clock: TimerClock,
  hz: number,
  tick: () => void,
  onError: (error: unknown) => void = () => undefined,
): () => void {
  const period = 1000 / hz;
  let start = clock.now();
  let n = 0;
  let stopped = false;
  let cancel: () => void = () => undefined;
  const schedule = () => {
    n += 1;
    let delay = start + n * period - clock.now();
    // Far behind (a stall), or far ahead because the wall clock was set back: start a new grid
    // rather than burst to catch up or fall silent until the old deadline comes round.
    if (delay < -RESYNC_MS || delay > period + RESYNC_MS) {
      start = clock.now();
      n = 0;
      delay = 0;
    }
    cancel = clock.schedule(run, Math.max(0, delay));
  };
  const run = () => {
    // One failed tick (a feed that threw) must not end the broadcast: every viewer would freeze.
    try {
      tick();
    } catch (error) {
      onError(error);
    }
    if (!stopped) schedule();
  };
  schedule();
  return () => {
    stopped = true;
    cancel();
  };
}

export interface BroadcastFeed {
  /** The frame as it is now (a string is sent as is); undefined when there is nothing to send yet. */
  frame(): string | object | undefined;
  /**
   * What makes two frames different for a viewer (everything but a time stamp, say): an unchanged
   * frame waits for `everyMs`. Without one, the frame goes out whenever `everyMs` has passed.
   */
  signature?(frame: string | object): string;
  /** An unchanged frame goes out again after this long, so a viewer can tell the link is alive; 0: every tick. */
  everyMs?: number;
}

export interface BroadcastDeps {
  clock: TimerClock;
  hz: number;
  hub: Pick<WsHub, 'broadcast' | 'clients' | 'onClientsChanged'>;
  /** The socket path whose viewers get the frames. */
  path: string;
  /** Sent in this order within a tick. */
  feeds: readonly BroadcastFeed[];
  /** Hears a tick that threw; the next tick runs as planned. */
  onError?: (error: unknown) => void;
}

/** Starts the broadcast; returns its stopper. */
export function startBroadcast(deps: BroadcastDeps): () => void {
  // A deadline within half a tick counts as due: with a 1 s heartbeat at 10 Hz the heartbeat comes
  // every 10th tick, not the 11th whenever timer jitter makes the 10th a hair early.
  const slack = 500 / deps.hz;
  const sent = deps.feeds.map(() => ({ at: undefined as number | undefined, signature: '' }));
  const tick = () => {
    const now = deps.clock.now();
    deps.feeds.forEach((feed, i) => {
      // Each feed on its own: one that throws must not keep the others' frames from viewers.
      try {
        const last = sent[i] as { at: number | undefined; signature: string };
        const due = last.at === undefined || now - last.at >= (feed.everyMs ?? 0) - slack;
        if (!due && !feed.signature) return;
        const frame = feed.frame();
        if (frame === undefined) return;
        if (feed.signature) {
          const signature = feed.signature(frame);
          if (!due && signature === last.signature) return;
          last.signature = signature;
        }
        last.at = now;
        deps.hub.broadcast(deps.path, frame);
      } catch (error) {
        deps.onError?.(error);
      }
    });
  };
  let stopTicker: (() => void) | undefined;
  const follow = (viewers: number) => {
    if (viewers > 0) stopTicker ??= startTicker(deps.clock, deps.hz, tick, deps.onError);
    else if (stopTicker) {
      stopTicker();
      stopTicker = undefined;
    }
  };
  const unsubscribe = deps.hub.onClientsChanged((path, count) => {
    if (path === deps.path) follow(count);
  });
  follow(deps.hub.clients(deps.path).size);
  return () => {
    unsubscribe();
    follow(0);
  };
}
