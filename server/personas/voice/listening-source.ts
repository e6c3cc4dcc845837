/**
 * The audio source the voice listener hears: opens the one the setting names (source-setting.ts),
 * feeds its audio to the utterance detector (vad.ts) and reports its life to the listener:
 * opening, first audio, failure, end. Half duplex: while the `speaking` hold stands the
 * microphone hears the robot's own answer, and while any other say plays (and its tail) the
 * robot's other words, so that audio is dropped and the detector starts over.
 * A source can open and send nothing, or stop sending without ending (the daemon microphone while
 * the camera's session is down or the robot sends no audio track): once it has sent none for
 * NO_AUDIO_MS it is reported as such, and as listening when audio comes. Only a report: the
 * source is left to run.
 * A generation count makes the callbacks of a source already stopped or replaced do nothing.
 */
import type { Schedule } from '../../perception/schedule.ts';
import { SAMPLE_RATE, type AudioSource } from './audio-source.ts';
import { createAudioSource } from './make-audio-source.ts';
import { parseSourceSetting } from './source-setting.ts';
import { SPEAKING_TAIL_MS, type SpeakingHold } from './speaking-hold.ts';
import { createVad, DEFAULT_VAD } from './vad.ts';
import type { VoiceListenerDeps } from './voice-listener-deps.ts';

/** The owner's dependencies that make a source. */
export type SourceOwnerDeps = Pick<VoiceListenerDeps, 'log' | 'platform' | 'microphone' | 'makeSource' | 'speakerBusy'>;

/** A source that has sent no audio for this long, since it opened or since its last, is reported as sending none. */
export const NO_AUDIO_MS = 5_000;

/** What the listener adds: the shared hold and clock, and where the source reports. */
export interface ListeningSourceWiring {
  hold: SpeakingHold;
  schedule: Schedule;
  now: () => number;
  /** A whole utterance, cut by the detector. */
  utterance(pcm: Buffer): void;
  /** A source was made and is opening. */
  opening(name: string): void;
  /** The source's first audio arrived. */
  listening(name: string): void;
  /** The source has sent no audio for NO_AUDIO_MS (`silent` true), or sends again after that (false); its first audio is `listening`. */
  audioGap(name: string, silent: boolean): void;
  /** The source ended without an error. */
  ended(): void;
  /** The source could not be made (`retry` false) or ended with an error (`retry` true). */
  failed(message: string, retry: boolean): void;
}

export interface ListeningSource {
  /** Opens the source the setting names; the caller stops the one before. */
  start(setting: string): void;
  /** Stops the source, if one runs, and drops the utterance under way. */
  stop(): void;
  /** The setting of the source now running, if any. */
  running(): string | undefined;
  /** The setting last started, whether or not it opened. */
  lastSetting(): string | undefined;
  /** The name of the source last made, kept once it stops. */
  name(): string | null;
}

interface Running {
  audio: AudioSource;
  setting: string;
  heard: boolean;
  /** When the last chunk came (or the source opened), and whether the gap since was reported. */
  lastAudioAt: number;
  silent: boolean;
  /** Cancels the gap check. */
  cancelCheck?: () => void;
}

export function createListeningSource(deps: SourceOwnerDeps, wiring: ListeningSourceWiring): ListeningSource {
  const vad = createVad({ ...DEFAULT_VAD, sampleRate: SAMPLE_RATE }, (u) => wiring.utterance(u.pcm));
  let current: Running | undefined;
  let name: string | null = null;
  let lastSetting: string | undefined;
  let generation = 0;
  /** When the speaker was last seen saying something else than the listener's answer. */
  let speakerBusyAt = -Infinity;

  const stop = (): void => {
    generation += 1;
    current?.cancelCheck?.();
    current?.audio.stop();
    current = undefined;
    vad.reset();
  };

  // One timer per gap, not per chunk: each check looks at the last chunk's time and waits out the rest.
  const armCheck = (source: Running, mine: number, ms: number): void => {
    source.cancelCheck = wiring.schedule(() => {
      source.cancelCheck = undefined;
      if (mine !== generation) return;
      const left = source.lastAudioAt + NO_AUDIO_MS - wiring.now();
      if (left > 0) return armCheck(source, mine, left);
      source.silent = true;
      wiring.audioGap(source.audio.name, true);
    }, ms);
  };

  const heardAudio = (source: Running, mine: number, chunk: Buffer): void => {
    const now = wiring.now();
    source.lastAudioAt = now;
    if (!source.heard) {
      source.heard = true;
      source.silent = false;
      wiring.listening(source.audio.name);
    } else if (source.silent) {
      source.silent = false;
      wiring.audioGap(source.audio.name, false);
    }
    if (!source.cancelCheck) armCheck(source, mine, NO_AUDIO_MS);
    // Half duplex: the microphone hears the robot's own answer while the hold stands, and any
    // other say until its last syllable has died away; answered, its words (a dashboard say of
    // "look left") would run a turn that moves the robot.
    if (deps.speakerBusy?.()) speakerBusyAt = now;
    if (wiring.hold.held() || now - speakerBusyAt < SPEAKING_TAIL_MS) return vad.reset();
    vad.push(chunk);
  };

  const sourceEnded = (error: string | null): void => {
    generation += 1;
    current?.cancelCheck?.();
    current = undefined;
    vad.flush();
    if (error) return wiring.failed(error, true);
    wiring.ended();
  };

  const start = (setting: string): void => {
    lastSetting = setting;
    let audio: AudioSource;
    try {
      const parsed = parseSourceSetting(setting, deps.platform ?? process.platform);
      audio =
        deps.makeSource?.(parsed) ??
        createAudioSource(parsed, {
          log: deps.log,
          ...(deps.microphone ? { microphone: deps.microphone } : {}),
        });
    } catch (error) {
      return wiring.failed((error as Error).message, false);
    }
    const mine = (generation += 1);
    const source: Running = { audio, setting, heard: false, lastAudioAt: wiring.now(), silent: false };
    current = source;
    name = audio.name;
    wiring.opening(audio.name);
    armCheck(source, mine, NO_AUDIO_MS);
    audio.start({
      pcm: (chunk) => mine === generation && heardAudio(source, mine, chunk),
      end: (error) => mine === generation && sourceEnded(error),
    });
  };

  return {
    start,
    stop,
    running: () => current?.setting,
    lastSetting: () => lastSetting,
    name: () => name,
  };
}
