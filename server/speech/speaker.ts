/**
 * Say: speech on the robot's speaker. The clip is synthesised here, uploaded through the
 * daemon's sound upload and played (docs/daemon.md, "Media"); the daemon's audio-reactive wobble is
 * on while it plays and the `speaking` tracking hold stands meanwhile (docs/contract.md, "How the desktop server behaves").
 * One utterance at a time: a new say interrupts the previous one, and so does the stop.
 */
import { systemClock, type TimerClock } from '../clock.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import { AppError, messageOf } from '../errors.ts';
import type { Log } from '../log.ts';
import type { Holds } from '../holds.ts';
import type { SpeechEngine } from './engine.ts';

export interface SpeakerDeps {
  daemon: Pick<DaemonClient, 'uploadSound' | 'playSound' | 'stopSound' | 'setWobbling'>;
  engine: SpeechEngine;
  holds: Holds;
  log: Log;
  /** When a clip has played; the real clock by default. */
  clock?: TimerClock;
}

export interface SayResult {
  engine: string;
  /** Length of the audio actually played, seconds. */
  seconds: number;
}

export interface Speaker {
  say(text: string): Promise<SayResult>;
  /** Interrupts any utterance and silences the speaker (also a recorded move's sidecar sound). */
  stop(): Promise<{ error?: string }>;
  speaking(): boolean;
}

interface Utterance {
  abort: AbortController;
  wobbling: boolean;
  /** This utterance has sent its wobble on (and maybe its clip) to the daemon. */
  audible?: boolean;
  /** A stop came while its say was still under way (before or after a newer utterance took over). */
  stopped?: boolean;
  /** Cancels the end-of-clip timer. */
  cancelTimer?: () => void;
}

/**
 * Two upload names: each clip takes the one the daemon is not playing, so a new clip never
 * replaces the file still being played (a player that opens it after the upload would play the
 * new words, and a daemon on Windows cannot replace a file its player holds open).
 */
const UPLOAD_NAMES = ['cockpit-say-a.wav', 'cockpit-say-b.wav'] as const;
/** The hold's time to live past the clip: a safety bound, so a lost timer can never freeze the head. */
const HOLD_TAIL_S = 1;
/**
 * The `speaking` hold stays this long after the clip ends, so tracking does not snap back on the
 * last syllable (docs/contract.md, "How the desktop server behaves"). The voice persona keeps the
 * same tail after its answers (server/personas/voice/speaking-hold.ts).
 */
export const SPEAKING_TAIL_MS = 800;

export function createSpeaker(deps: SpeakerDeps): Speaker {
  return new DaemonSpeaker(deps);
}

class DaemonSpeaker implements Speaker {
  private current: Utterance | undefined;
  /**
   * Every say still under way, the current one and those a newer utterance interrupted: a play
   * of an interrupted one can still be on its way to the daemon when the stop comes, and must
   * be silenced once it lands as the current one's is.
   */
  private readonly underWay = new Set<Utterance>();
  /**
   * Upload and play requests still on their way to the daemon, an interrupted say's included: a
   * new upload waits for them, so none lands after it (an upload on its name would replace its
   * clip, a play would start a file it replaces) and the last play to land names the file playing.
   */
  private readonly landing = new Set<Promise<void>>();
  /** The upload name of the last play that landed: the daemon may still be playing it. */
  private playing: string | undefined;
  /** Releases the hold at the end of the last clip's tail. */
  private cancelTail: (() => void) | undefined;
  private readonly clock: TimerClock;

  constructor(private readonly deps: SpeakerDeps) {
    this.clock = deps.clock ?? systemClock;
  }

  speaking(): boolean {
    return this.current !== undefined;
  }

  async say(text: string): Promise<SayResult> {
    const interrupted = this.interrupt();
    // An interrupted clip may still be wobbling: this utterance inherits turning it off.
    const u: Utterance = { abort: new AbortController(), wobbling: interrupted };
    this.current = u;
    this.underWay.add(u);
    try {
      const clip = await this.deps.engine.synthesize(text, u.abort.signal);
      this.ensureCurrent(u);
      await this.landed(u);
      this.ensureCurrent(u);
      const name = this.playing === UPLOAD_NAMES[0] ? UPLOAD_NAMES[1] : UPLOAD_NAMES[0];
      const path = await this.track(this.deps.daemon.uploadSound(name, clip.wav));
      this.ensureCurrent(u);
      this.endTail();
      this.deps.holds.take('speaking', clip.seconds + HOLD_TAIL_S);
      if (interrupted) await this.deps.daemon.stopSound();
      // A stop that came while the daemon answered has sent its wobble off already: a wobble on
      // sent now would land after it and leave the head wobbling, so nothing more goes out.
      this.ensureCurrent(u);
      u.wobbling = true;
      u.audible = true;
      await this.deps.daemon.setWobbling(true);
      this.ensureCurrent(u);
      await this.track(this.deps.daemon.playSound(path), name);
      this.ensureCurrent(u);
      // The clip starts now: a daemon slow to answer the play had the hold taken above lapse
      // before the clip's end, and tracking took the head while the robot still spoke.
      this.deps.holds.take('speaking', clip.seconds + HOLD_TAIL_S);
      u.cancelTimer = this.clock.schedule(() => void this.finish(u, true), clip.seconds * 1000);
      return { engine: this.deps.engine.name, seconds: Math.round(clip.seconds * 1000) / 1000 };
    } catch (err) {
      if (this.current === u) {
        if (interrupted) await this.deps.daemon.stopSound().catch(() => undefined);
        await this.finish(u, false);
      } else if (u.stopped && u.audible && this.current === undefined) {
        // The play travels on its own connection: the stop's stop_sound can reach the daemon
        // first, and the clip then plays after the stop. Silence once more, now it has landed.
        await this.silence();
      }
      throw err;
    } finally {
      this.underWay.delete(u);
    }
  }

  async stop(): Promise<{ error?: string }> {
    const u = this.current;
    this.current = undefined;
    for (const going of this.underWay) going.stopped = true;
    if (u) this.cancel(u);
    this.endTail();
    this.deps.holds.release('speaking');
    return this.silence();
  }

  private async silence(): Promise<{ error?: string }> {
    const results = await Promise.allSettled([this.deps.daemon.stopSound(), this.deps.daemon.setWobbling(false)]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    return failed ? { error: messageOf(failed.reason) } : {};
  }

  /** Follows a request until it lands; a play's landing names the file playing. */
  private track<T>(request: Promise<T>, plays?: string): Promise<T> {
    const landed = request.then(
      () => undefined,
      () => undefined,
    );
    this.landing.add(landed);
    void landed.then(() => {
      this.landing.delete(landed);
      if (plays) this.playing = plays;
    });
    return request;
  }

  /** Resolves once every request on its way has landed, or at once when `u` is interrupted. */
  private landed(u: Utterance): Promise<unknown> {
    const signal = u.abort.signal;
    if (this.landing.size === 0 || signal.aborted) return Promise.resolve();
    const interrupted = new Promise<void>((resolve) =>
      signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    return Promise.race([Promise.all(this.landing), interrupted]);
  }

  /** Ends the current utterance, if any; returns whether one was under way. */
  private interrupt(): boolean {
    const u = this.current;
    if (!u) return false;
    this.cancel(u);
    return true;
  }

  private cancel(u: Utterance): void {
    u.abort.abort();
    u.cancelTimer?.();
  }

  private endTail(): void {
    this.cancelTail?.();
    this.cancelTail = undefined;
  }

  private ensureCurrent(u: Utterance): void {
    if (this.current !== u) throw new AppError('CONFLICT', 'speech interrupted by a newer utterance or the stop');
  }

  /**
   * The clip has played (or failed): wobble off. After a played clip the hold is taken again for
   * the tail in the same step, never released first: whoever else holds `speaking` (the voice
   * persona takes its own tail when its answer ends) finds it still held, not dropped for a moment.
   */
  private async finish(u: Utterance, played: boolean): Promise<void> {
    if (this.current !== u) return;
    this.current = undefined;
    u.cancelTimer?.();
    if (played) {
      this.deps.holds.take('speaking', SPEAKING_TAIL_MS / 1000 + HOLD_TAIL_S);
      this.cancelTail = this.clock.schedule(() => {
        this.cancelTail = undefined;
        this.deps.holds.release('speaking');
      }, SPEAKING_TAIL_MS);
    } else {
      this.deps.holds.release('speaking');
    }
    if (!u.wobbling) return;
    await this.deps.daemon.setWobbling(false).catch((err: unknown) => {
      this.deps.log.warn('could not turn the speech wobble off', { error: messageOf(err) });
    });
  }
}
