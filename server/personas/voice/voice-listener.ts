/**
 * The voice listener persona: microphone audio from an AudioSource, cut into
 * utterances by the detector, each one handled by runVoiceTurn (transcript → turn of persona
 * "voice" → spoken answer). Half duplex: while its own answer plays (the `speaking` hold,
 * tail included) what the microphone hears is dropped, so the robot does not answer itself.
 * Paused by the latched stop and demo mode (autonomy registry), switched by the settings (off,
 * muted, source); a source that fails is restarted after 5 s doubling to 300 s. It never calls
 * the daemon's media routes: the robot's microphone comes through the camera's one session
 * (`daemon`), other sources are local, so failing to start costs the robot nothing.
 */
import type { AgentLog } from '../../agent/agent-log.ts';
import type { AgentRuntime } from '../../agent/agent-runtime.ts';
import type { WatchdogLimits } from '../../agent/watchdog.ts';
import type { ServiceState } from '../../contract/state.ts';
import type { Log } from '../../log.ts';
import type { Holds } from '../../holds.ts';
import { realSchedule, type Schedule } from '../../perception/schedule.ts';
import { createRestarter, type Restarter } from '../restart-backoff.ts';
import { SAMPLE_RATE, type AudioSource } from './audio-source.ts';
import type { MicrophoneProvider } from './daemon-audio-source.ts';
import { createAudioSource } from './make-audio-source.ts';
import { parseSourceSetting, type SourceSetting } from './source-setting.ts';
import { createSpeakingHold, type SpeakingHold } from './speaking-hold.ts';
import { createOpenAiTranscriber, type Transcriber } from '../../speech/transcriber.ts';
import { createVad, DEFAULT_VAD, type Vad } from './vad.ts';
import type { VoiceConfig } from './voice-settings.ts';
import type { LinkState, Stamped, TurnPhase, VoiceStatus } from '../../contract/personas.ts';
import { phaseDetail, serviceOf } from './voice-status.ts';
import { runVoiceTurn, type HeardUtterance, type VoiceTurnDeps } from './voice-turn.ts';

export interface VoiceListenerDeps {
  settings: { current(): VoiceConfig };
  runtime: Pick<AgentRuntime, 'start'>;
  agentLog: Pick<AgentLog, 'add'>;
  say(text: string): Promise<{ seconds: number }>;
  holds: Holds;
  log: Log;
  services?: Map<string, ServiceState>;
  platform?: NodeJS.Platform;
  /** The camera's frame hub: the robot's microphone for the `daemon` source. */
  microphone?: MicrophoneProvider;
  makeSource?: (setting: SourceSetting) => AudioSource;
  makeTranscriber?: (config: VoiceConfig['transcription']) => Transcriber;
  schedule?: Schedule;
  now?: () => number;
  limits?: WatchdogLimits;
  /**
   * Told every utterance that was understood, before its turn runs (the platform stores it as an
   * on-device transcript while the robot is linked). Must not throw or wait.
   */
  heard?: (heard: HeardUtterance) => void;
}

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

/** The Ask's budget (README-agent.md): a spoken question deserves no more. */
export const VOICE_LIMITS: WatchdogLimits = Object.freeze({ overallMs: 60_000, idleMs: 20_000 });

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
  private readonly schedule: Schedule;
  private readonly restarter: Restarter;
  private readonly hold: SpeakingHold;
  private readonly vad: Vad;
  private link: LinkState = 'off';
  private linkDetail = 'off';
  private phase: TurnPhase | undefined;
  private source: { audio: AudioSource; setting: string; heard: boolean } | undefined;
  private sourceName: string | null = null;
  /** The setting last started, so a failed one waits out its delay unless the owner changes it. */
  private lastSetting: string | undefined;
  private generation = 0;
  private paused = false;
  private closed = false;
  private pending: Buffer | undefined;
  private busy: Promise<void> | undefined;
  private controller = new AbortController();
  private utterances = 0;
  private lastTranscript: Stamped | null = null;
  private lastError: Stamped | null = null;

  constructor(private readonly deps: VoiceListenerDeps) {
    this.now = deps.now ?? Date.now;
    this.schedule = deps.schedule ?? realSchedule;
    this.restarter = createRestarter({ retry: () => this.retry(), schedule: this.schedule, now: this.now });
    this.hold = createSpeakingHold(deps.holds, this.schedule);
    this.vad = createVad({ ...DEFAULT_VAD, sampleRate: SAMPLE_RATE }, (u) => this.heardUtterance(u.pcm));
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
    if (this.source?.setting === config.source) return;
    // A failed source waits out its delay, unless the owner picked another one.
    if (this.link === 'failed' && this.restarter.nextAt() !== null && this.lastSetting === config.source) return;
    if (this.lastSetting !== config.source) this.restarter.reset();
    this.stopSource();
    this.startSource(config.source);
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
    return {
      state: this.phase ?? this.link,
      detail: this.phase ? phaseDetail(this.phase) : this.linkDetail,
      source: this.sourceName,
      utterances: this.utterances,
      lastTranscript: this.lastTranscript,
      lastError: this.lastError,
      failures: this.restarter.failures(),
      retryAt: retryAt === null ? null : new Date(retryAt).toISOString(),
    };
  }

  async settled(): Promise<void> {
    while (this.busy) await this.busy;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.restarter.cancel();
    this.halt('the cockpit is shutting down');
    await this.settled();
  }

  private startSource(setting: string): void {
    this.lastSetting = setting;
    let audio: AudioSource;
    try {
      const parsed = parseSourceSetting(setting, this.deps.platform ?? process.platform);
      audio =
        this.deps.makeSource?.(parsed) ??
        createAudioSource(parsed, {
          log: this.deps.log,
          ...(this.deps.microphone ? { microphone: this.deps.microphone } : {}),
        });
    } catch (error) {
      return this.fail((error as Error).message, false);
    }
    const generation = (this.generation += 1);
    const current = { audio, setting, heard: false };
    this.source = current;
    this.sourceName = audio.name;
    this.setLink('starting', `opening ${audio.name}`);
    audio.start({
      pcm: (chunk) => generation === this.generation && this.heardAudio(current, chunk),
      end: (error) => generation === this.generation && this.sourceEnded(error),
    });
  }

  private heardAudio(current: NonNullable<Listener['source']>, chunk: Buffer): void {
    if (!current.heard) {
      current.heard = true;
      this.restarter.started();
      this.setLink('listening', `listening on ${current.audio.name}`);
      this.row(`Listening on ${current.audio.name}.`, false);
    }
    // Half duplex: the microphone hears the robot's own answer while the hold stands.
    if (this.hold.held()) return this.vad.reset();
    this.vad.push(chunk);
  }

  private sourceEnded(error: string | null): void {
    this.generation += 1;
    this.source = undefined;
    this.vad.flush();
    if (error) return this.fail(error, true);
    this.setLink('ended', `${this.sourceName ?? 'the audio source'} ended`);
    this.row(`The audio source ended (${this.sourceName}).`, false);
  }

  private fail(message: string, retry: boolean): void {
    this.stopSource();
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
    this.startSource(config.source);
  }

  private heardUtterance(pcm: Buffer): void {
    this.utterances += 1;
    // One waiting utterance at most: the newest is what the person means now.
    this.pending = pcm;
    this.pump();
  }

  private pump(): void {
    if (this.busy || !this.pending) return;
    const pcm = this.pending;
    this.pending = undefined;
    this.busy = runVoiceTurn(this.turnDeps(), pcm, this.controller.signal)
      .catch((error: unknown) => this.deps.log.error('voice turn crashed', { error: String(error) }))
      .finally(() => {
        this.busy = undefined;
        this.phase = undefined;
        this.publish();
        this.pump();
      });
  }

  private turnDeps(): VoiceTurnDeps {
    const t = this.deps.settings.current().transcription;
    const make =
      this.deps.makeTranscriber ??
      ((c) => createOpenAiTranscriber({ ...c, ...(c.language ? { language: c.language } : {}) }));
    return {
      transcriber: make(t),
      runtime: this.deps.runtime,
      say: this.deps.say,
      hold: this.hold,
      schedule: this.schedule,
      limits: this.deps.limits ?? VOICE_LIMITS,
      sampleRate: SAMPLE_RATE,
      phase: (phase) => {
        this.phase = phase;
        this.publish();
      },
      transcript: (heard) => {
        this.lastTranscript = { text: heard.text, at: new Date(this.now()).toISOString() };
        this.deps.heard?.(heard);
      },
      problem: (message, row) => {
        this.lastError = { text: message, at: new Date(this.now()).toISOString() };
        if (row) this.row(`Voice: ${message}`, true);
      },
    };
  }

  /** Ends what is under way: the utterance being handled, the waiting one, the hold, the source. */
  private halt(reason: string): void {
    this.controller.abort(new Error(reason));
    this.controller = new AbortController();
    this.pending = undefined;
    this.hold.interrupt();
    this.stopSource();
  }

  private stopSource(): void {
    this.generation += 1;
    this.source?.audio.stop();
    this.source = undefined;
    this.vad.reset();
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
