/**
 * The voice listener persona: microphone audio from an AudioSource (listening-source.ts), cut
 * into utterances, each one handled in turn (utterance-queue.ts: transcript → turn of persona
 * "voice" → spoken answer). Half duplex: while its own answer plays (the `speaking` hold, tail
 * included) what the microphone hears is dropped, so the robot does not answer itself. This file
 * follows the owner: paused by the latched stop and demo mode (autonomy registry), switched by
 * the settings (off, muted, source); a source that fails is restarted after 5 s doubling to 300 s
 * (restart-backoff.ts). It never calls the daemon's media routes: the robot's microphone comes
 * through the camera's one session (`daemon`), other sources are local, so failing to start
 * costs the robot nothing.
 */
import type { LinkState, Stamped, VoiceStatus } from '../../contract/personas.ts';
import { realSchedule } from '../../perception/schedule.ts';
import { createRestarter, type Restarter } from '../restart-backoff.ts';
import { createListeningSource, NO_AUDIO_MS, type ListeningSource } from './listening-source.ts';
import { createSpeakingHold, type SpeakingHold } from './speaking-hold.ts';
import { createUtteranceQueue, type UtteranceQueue } from './utterance-queue.ts';
import type { VoiceListenerDeps } from './voice-listener-deps.ts';
import { phaseDetail, serviceOf } from './voice-status.ts';

export type { VoiceListenerDeps } from './voice-listener-deps.ts';
export { VOICE_LIMITS } from './utterance-queue.ts';

export interface VoiceListener {
  /** Starts, stops or restarts the source as the settings now say. */
  apply(): void;
  pause(): void;
  resume(): void;
  status(): VoiceStatus;
  /** Resolves once no utterance is being handled. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const HALT_REASONS: Record<'off' | 'paused' | 'muted', string> = {
  off: 'the voice listener was switched off',
  paused: 'the voice listener was paused (latched stop or demo mode)',
  muted: 'the voice listener was muted',
};

export function createVoiceListener(deps: VoiceListenerDeps): VoiceListener {
  return new Listener(deps);
}

class Listener implements VoiceListener {
  private readonly now: () => number;
  private readonly restarter: Restarter;
  private readonly hold: SpeakingHold;
  private readonly turns: UtteranceQueue;
  private readonly source: ListeningSource;
  private link: LinkState = 'off';
  private linkDetail = 'off';
  private paused = false;
  private closed = false;
  private lastError: Stamped | null = null;

  constructor(private readonly deps: VoiceListenerDeps) {
    this.now = deps.now ?? Date.now;
    const schedule = deps.schedule ?? realSchedule;
    this.restarter = createRestarter({ retry: () => this.retry(), schedule, now: this.now });
    this.hold = createSpeakingHold(deps.holds, schedule);
    this.turns = createUtteranceQueue(deps, {
      hold: this.hold,
      schedule,
      now: this.now,
      changed: () => this.publish(),
      problem: (message, row) => {
        this.lastError = { text: message, at: new Date(this.now()).toISOString() };
        if (row) this.row(`Voice: ${message}`, true);
      },
    });
    this.source = createListeningSource(deps, {
      hold: this.hold,
      schedule,
      now: this.now,
      utterance: (pcm) => this.turns.heard(pcm),
      opening: (name) => this.setLink('starting', `opening ${name}`),
      listening: (name) => {
        this.restarter.started();
        this.setLink('listening', `listening on ${name}`);
        this.row(`Listening on ${name}.`, false);
      },
      audioGap: (name, silent) => {
        if (silent) this.deps.log.warn('voice listener: no audio from its source', { source: name });
        this.setLink(
          silent ? 'no_audio' : 'listening',
          silent ? `no audio from ${name} in the last ${NO_AUDIO_MS / 1000} s` : `listening on ${name}`,
        );
      },
      ended: () => {
        const name = this.source.name();
        this.setLink('ended', `${name ?? 'the audio source'} ended`);
        this.row(`The audio source ended (${name}).`, false);
      },
      failed: (message, retry) => this.fail(message, retry),
    });
    this.publish();
  }

  apply(): void {
    if (this.closed) return;
    const config = this.deps.settings.current();
    const idle: LinkState | undefined = !config.enabled
      ? 'off'
      : this.paused
        ? 'paused'
        : config.muted
          ? 'muted'
          : undefined;
    if (idle) {
      this.halt(HALT_REASONS[idle]);
      if (idle === 'off') this.restarter.reset();
      else this.restarter.cancel();
      return this.setLink(idle, idle === 'off' ? 'off' : idle === 'muted' ? 'muted: not listening' : 'paused');
    }
    if (this.source.running() === config.source) return;
    const lastSetting = this.source.lastSetting();
    // A failed source waits out its delay, unless the owner picked another one.
    if (this.link === 'failed' && this.restarter.nextAt() !== null && lastSetting === config.source) return;
    if (lastSetting !== config.source) this.restarter.reset();
    this.source.stop();
    this.source.start(config.source);
  }

  pause(): void {
    this.paused = true;
    this.apply();
  }

  resume(): void {
    this.paused = false;
    this.apply();
  }

  status(): VoiceStatus {
    const retryAt = this.restarter.nextAt();
    const phase = this.turns.phase();
    return {
      state: phase ?? this.link,
      detail: phase ? phaseDetail(phase) : this.linkDetail,
      source: this.source.name(),
      utterances: this.turns.utterances(),
      lastTranscript: this.turns.lastTranscript(),
      lastError: this.lastError,
      failures: this.restarter.failures(),
      retryAt: retryAt === null ? null : new Date(retryAt).toISOString(),
    };
  }

  settled(): Promise<void> {
    return this.turns.settled();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.restarter.cancel();
    this.halt('the cockpit is shutting down');
    await this.settled();
  }

  private fail(message: string, retry: boolean): void {
    this.source.stop();
    this.lastError = { text: message, at: new Date(this.now()).toISOString() };
    const detail = retry ? `${message}; retrying in ${Math.round(this.restarter.failed() / 1000)} s` : message;
    this.deps.log.warn('voice listener failed', { error: message, retry });
    this.setLink('failed', detail);
    this.row(`Voice listener failed: ${detail}`, true);
  }

  private retry(): void {
    if (this.link !== 'failed') return;
    const config = this.deps.settings.current();
    if (!config.enabled || config.muted || this.paused || this.closed) return;
    this.source.start(config.source);
  }

  /** Ends what is under way: the utterance being handled, the waiting one, the hold, the source. */
  private halt(reason: string): void {
    this.turns.interrupt(reason);
    this.hold.interrupt();
    this.source.stop();
  }

  private setLink(link: LinkState, detail: string): void {
    this.link = link;
    this.linkDetail = detail;
    this.publish();
  }

  private row(text: string, error: boolean): void {
    this.deps.agentLog.add({ role: 'assistant', persona: 'voice', text, ...(error ? { error: true } : {}) }).finish();
  }

  private publish(): void {
    this.deps.services?.set('voice', serviceOf(this.status()));
  }
}
