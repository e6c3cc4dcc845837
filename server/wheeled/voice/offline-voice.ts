/**
 * The offline voice of /ws/voice, the default: it always answers out loud. The user's speech is
 * collected until {type: "stop"}; with a transcription endpoint configured it becomes a prompt,
 * the agent answers and espeak-ng speaks the reply. Without one, nothing on this machine can
 * understand speech, and the robot says exactly that (announced in voice_meta's note as well);
 * a typed {type: "text"} is still answered aloud. Without a model it says that no model is
 * configured. One answer at a time: a typed line while one is going is refused with an error
 * frame; after the answer to a stop the socket closes.
 */
import type { VoiceServerFrame } from '../../contract/wheeled.ts';
import type { CredentialKind } from '../../contract/ws.ts';
import type { Log } from '../../log.ts';
import type { SpeechEngine } from '../../speech/engine.ts';
import type { Transcriber } from '../../speech/transcriber.ts';
import { pcm16Wav } from '../../speech/wav.ts';
import { checkChatText } from '../chat/chat-input.ts';
import type { WheeledAgent } from '../chat/wheeled-agent.ts';
import { OFFLINE_RATE, speakFrames, spokenPieces } from './speech-out.ts';

/** Longest utterance kept; later audio of the same utterance is dropped. */
export const MAX_UTTERANCE_SECONDS = 30;

export const NO_MODEL_LINE =
  'No model is configured, so I cannot answer yet. Choose a model in the dashboard settings.';
export const NOTHING_HEARD_LINE = 'I did not hear anything.';
export const notTranscribedLine = (seconds: number) =>
  `I heard ${seconds.toFixed(1)} seconds of sound, but I cannot understand speech offline. ` +
  'Configure a transcription endpoint in the dashboard, or type to me.';

export interface VoiceIo {
  send(frame: VoiceServerFrame): void;
  /** Closes the socket normally (1000) once the last answer is out. */
  end(): void;
}

/** The offline voice also hands its spoken answers over at the pace the browser takes them. */
export interface OfflineVoiceIo extends VoiceIo {
  /**
   * Sends one frame of a spoken answer; resolves at once while little waits unsent, otherwise once
   * this frame has left (or the socket closed). An answer is handed over all at once by espeak-ng:
   * sent in one go, a minute and more of speech piled up past what may wait for a browser that
   * reads (server/wheeled/voice/voice-socket.ts), and its session ended as if it did not.
   */
  sendInTurn(frame: VoiceServerFrame): Promise<void>;
}

export interface VoiceSession {
  audio(chunk: Buffer): void;
  text(text: unknown): void;
  stop(): void;
  /** The socket went away: abort whatever is running. */
  close(): void;
}

export interface OfflineVoiceDeps {
  io: OfflineVoiceIo;
  agent: Pick<WheeledAgent, 'run' | 'configured'>;
  engine: SpeechEngine;
  transcriber: Transcriber | undefined;
  transcriptionHost?: string;
  credential: CredentialKind;
  log: Log;
}

export function offlineNote(deps: Pick<OfflineVoiceDeps, 'agent' | 'transcriber' | 'transcriptionHost'>): string {
  if (!deps.agent.configured()) return 'No model is configured: the robot will say so out loud.';
  if (deps.transcriber)
    return `Offline voice: your speech is transcribed by ${deps.transcriptionHost ?? 'the configured endpoint'}, the reply is spoken by espeak-ng.`;
  return 'Offline voice: speech is not transcribed (no transcription endpoint is configured). Typed {type: "text"} messages are answered aloud by espeak-ng.';
}

export function createOfflineVoice(deps: OfflineVoiceDeps): VoiceSession {
  const { io } = deps;
  const controller = new AbortController();
  const maxBytes = MAX_UTTERANCE_SECONDS * OFFLINE_RATE * 2;
  let chunks: Buffer[] = [];
  let bytes = 0;
  let stopping = false;
  let queue: Promise<void> = Promise.resolve();
  /** Answers queued or being spoken. */
  let answering = 0;

  io.send({
    type: 'voice_meta',
    rate: OFFLINE_RATE,
    provider: 'offline',
    transcription: deps.transcriber !== undefined,
    note: offlineNote(deps),
  });

  const say = async (text: string) => {
    for (const piece of spokenPieces(text)) {
      for (const frame of await speakFrames(deps.engine, piece, OFFLINE_RATE, controller.signal)) {
        if (controller.signal.aborted) return;
        await io.sendInTurn({ type: 'audio', data: frame.toString('base64') });
      }
    }
  };
  const reply = async (prompt: string) => {
    if (!deps.agent.configured()) return say(NO_MODEL_LINE);
    const result = await deps.agent.run({ prompt, credential: deps.credential, signal: controller.signal });
    const answer = result.ok
      ? result.text || 'I have nothing to say to that.'
      : `Sorry, that did not work: ${result.error ?? 'the turn failed'}.`;
    io.send({ type: 'transcript', role: 'assistant', text: answer });
    await say(answer);
  };
  const answerUtterance = async () => {
    const pcm = Buffer.concat(chunks);
    chunks = [];
    const seconds = pcm.length / 2 / OFFLINE_RATE;
    if (!deps.agent.configured()) return say(NO_MODEL_LINE);
    if (pcm.length === 0) return say(NOTHING_HEARD_LINE);
    if (!deps.transcriber) return say(notTranscribedLine(seconds));
    const heard = await deps.transcriber.transcribe(pcm16Wav(pcm, OFFLINE_RATE), controller.signal);
    io.send({ type: 'transcript', role: 'user', text: heard });
    return heard === '' ? say(NOTHING_HEARD_LINE) : reply(heard.slice(0, 600));
  };
  const enqueue = (work: () => Promise<void>) => {
    answering += 1;
    queue = queue
      .then(work)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        deps.log.warn('voice answer failed', { error: String((error as Error)?.message ?? error) });
        io.send({ type: 'error', error: (error as Error)?.message ?? String(error) });
      })
      .then(() => {
        answering -= 1;
        if (!controller.signal.aborted) io.send({ type: 'done' });
      });
    return queue;
  };

  return {
    audio(chunk) {
      if (stopping || bytes + chunk.length > maxBytes) return;
      chunks.push(chunk);
      bytes += chunk.length;
    },
    text(value) {
      let prompt: string;
      try {
        prompt = checkChatText(value);
      } catch (error) {
        return io.send({ type: 'error', error: (error as Error).message });
      }
      // One question at a time, as on /ws/chat: each typed line used to queue another agent turn
      // of up to 90 s, without limit, for a caller that never waited for an answer.
      if (answering > 0) return io.send({ type: 'error', error: 'an answer is still going; wait for its done frame' });
      void enqueue(() => reply(prompt));
    },
    stop() {
      if (stopping) return;
      stopping = true;
      void enqueue(answerUtterance).then(() => io.end());
    },
    close() {
      controller.abort(new Error('the voice socket closed'));
    },
  };
}
