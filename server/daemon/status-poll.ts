/**
 * The daemon's status, read once a second beside the state stream: it tells a stopped daemon
 * (`state` other than `running`) and an unreachable one from a stream that merely went quiet
 * (docs/daemon.md, "The protocol as the cockpit uses it").
 */
import type { TimerClock } from '../clock.ts';
import { isAppError } from '../errors.ts';
import type { DaemonClient } from './daemon-client.ts';
import type { DaemonStatus } from './wire.ts';

/** After each poll: the status, or undefined with the reason the daemon did not answer. */
export type StatusListener = (status: DaemonStatus | undefined, error: string | null) => void;

export class StatusPoll {
  /** The last status the daemon sent; kept while it does not answer. */
  status: DaemonStatus | undefined;
  /** Why the last poll got no answer; null when it did. */
  error: string | null = null;
  private readonly listeners = new Set<StatusListener>();
  private cancel: (() => void) | undefined;
  /** Moves on each start and stop, so a read still out when stopped schedules nothing. */
  private generation = 0;
  private running = false;

  constructor(
    private readonly daemon: DaemonClient,
    private readonly clock: TimerClock,
    private readonly intervalMs: number,
  ) {}

  onStatus(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.poll(++this.generation);
  }

  stop(): void {
    this.running = false;
    this.generation += 1;
    this.cancel?.();
    this.cancel = undefined;
  }

  private async poll(generation: number): Promise<void> {
    try {
      this.status = await this.daemon.status();
      this.error = null;
    } catch (err) {
      this.error = isAppError(err) ? err.message : String(err);
    }
    if (generation !== this.generation) return;
    const answered = this.error === null ? this.status : undefined;
    for (const listener of this.listeners) listener(answered, this.error);
    this.cancel = this.clock.schedule(() => void this.poll(generation), this.intervalMs);
  }
}
