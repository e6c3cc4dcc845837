/**
 * The state feed's fallback when the daemon's state WebSocket cannot be opened: poll
 * `GET /api/state/full` at the stream's rate (at most 20 Hz) until the socket opens again or the
 * daemon stops running (docs/daemon.md, "The protocol as the cockpit uses it").
 */
import type { TimerClock } from '../clock.ts';
import { isAppError } from '../errors.ts';
import type { DaemonClient } from './daemon-client.ts';

/** A REST read is slower than a frame on an open socket; faster polling would only load the daemon. */
const MAX_POLL_HZ = 20;

export interface RestFallbackOptions {
  daemon: DaemonClient;
  clock: TimerClock;
  /** The rate asked of the stream now; read before each poll, so a rate change applies at once. */
  rateHz: () => number;
  /** Each answer, as the text a stream frame would carry. */
  onState: (text: string) => void;
  onError: (message: string) => void;
}

export class RestFallback {
  /** The pending tick, while polling. */
  private timer: (() => void) | undefined;

  constructor(private readonly options: RestFallbackOptions) {}

  get active(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    const { daemon, clock } = this.options;
    const tick = async () => {
      try {
        this.options.onState(JSON.stringify(await daemon.fullState('with_doa=true&with_imu=true')));
      } catch (err) {
        this.options.onError(isAppError(err) ? err.message : String(err));
      }
      // Stopped while the read was out: no next tick.
      if (this.timer)
        this.timer = clock.schedule(() => void tick(), 1000 / Math.min(this.options.rateHz(), MAX_POLL_HZ));
    };
    this.timer = clock.schedule(() => void tick(), 0);
  }

  stop(): void {
    this.timer?.();
    this.timer = undefined;
  }
}
