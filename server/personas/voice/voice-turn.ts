/**
 * One heard utterance, start to finish: transcribe it, run it as a turn of the persona "voice"
 * through the agent runtime (the user's row in the agent log is the transcript), and speak the
 * answer on the robot through the say path, holding `speaking` from its first audio until 0.8 s
 * after it has played. The signal is the interruption (the latched stop, mute, pause,
 * shutdown): it ends whatever step is running, and the hold is let go at once.
 */
import type { AgentRuntime } from '../../agent/agent-runtime.ts';
import type { WatchdogLimits } from '../../agent/watchdog.ts';
import type { Schedule } from '../../perception/schedule.ts';
import { pcm16Wav } from '../../speech/wav.ts';
import type { SpeakingHold } from './speaking-hold.ts';
import type { Transcriber } from '../../speech/transcriber.ts';
import { messageOf } from '../../errors.ts';
import { sayableText } from '../../motion/control-input.ts';
import type { TurnPhase } from '../../contract/personas.ts';


/** What was understood of one utterance, and how long it was (whole seconds, as transcripts count it). */
export interface HeardUtterance {
  text: string;
  durationS: number;
}

export interface VoiceTurnDeps {
  transcriber: Transcriber;
  runtime: Pick<AgentRuntime, 'start'>;
  /** control.say: synthesise, upload, play; resolves once playing with the clip's length. */
  say(text: string): Promise<{ seconds: number }>;
  hold: SpeakingHold;
  schedule: Schedule;
  limits: WatchdogLimits;
  sampleRate: number;
  phase(phase: TurnPhase): void;
  transcript(heard: HeardUtterance): void;
  /** A failure to show: `row` when nothing else has written it to the agent log. */
  problem(message: string, row: boolean): void;
}

/** The say route's limit (README: {text} 1-1000 chars). */
const MAX_SPOKEN = 1000;

/** Resolves after `ms`, or rejects with the signal's reason. */
function wait(ms: number, signal: AbortSignal, schedule: Schedule): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      cancel();
      reject(signal.reason as Error);
    };
    const cancel = schedule(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function transcribe(deps: VoiceTurnDeps, pcm: Buffer, signal: AbortSignal): Promise<string> {
  deps.phase('transcribing');
  try {
    return await deps.transcriber.transcribe(pcm16Wav(pcm, deps.sampleRate), signal);
  } catch (error) {
    if (!signal.aborted) deps.problem(`could not transcribe: ${messageOf(error)}`, true);
    return '';
  }
}

async function think(deps: VoiceTurnDeps, prompt: string, signal: AbortSignal): Promise<string> {
  deps.phase('thinking');
  let done;
  try {
    // fleet: true = the robot's own tools only. Anyone in the room can speak, so a spoken
    // request never reaches the owner's other devices.
    done = deps.runtime.start({
      persona: 'voice',
      prompt,
      fleet: true,
      credential: 'system',
      limits: deps.limits,
      signal,
    }).done;
  } catch (error) {
    deps.problem(messageOf(error), true);
    return '';
  }
  const result = await done;
  // A failed turn has its own error row (provider error, watchdog, latched stop).
  if (!result.ok && !signal.aborted) deps.problem(result.error ?? 'the turn failed', false);
  return result.ok && !signal.aborted ? result.text.trim() : '';
}

async function speak(deps: VoiceTurnDeps, answer: string, signal: AbortSignal): Promise<void> {
  deps.phase('speaking');
  deps.hold.begin();
  try {
    const { seconds } = await deps.say(answer);
    deps.hold.playing(seconds);
    await wait(seconds * 1000, signal, deps.schedule);
    deps.hold.complete();
  } catch (error) {
    deps.hold.interrupt();
    if (!signal.aborted) deps.problem(`could not speak the answer: ${messageOf(error)}`, true);
  }
}

export async function runVoiceTurn(deps: VoiceTurnDeps, pcm: Buffer, signal: AbortSignal): Promise<void> {
  const text = await transcribe(deps, pcm, signal);
  // Services answer "" (or a lone dot) for a cough or a door: nothing to run a turn on.
  if (signal.aborted || !/[\p{L}\p{N}]/u.test(text)) return;
  // 16-bit mono: two bytes a sample.
  deps.transcript({ text, durationS: Math.round(pcm.length / 2 / deps.sampleRate) });
  // The model's answer gets the say route's rule for text (control-input.ts, parseSay): a NUL
  // in it would make espeak-ng's spawn fail, and the answer would not be spoken at all.
  const answer = sayableText((await think(deps, text, signal)).slice(0, MAX_SPOKEN)).trim();
  if (answer && !signal.aborted) await speak(deps, answer, signal);
}
