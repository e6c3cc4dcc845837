/**
 * /ws/voice through an OpenAI-Realtime-compatible speech model (the dashboard's `realtime`
 * voice). One upstream WebSocket per voice socket: the browser's PCM16 goes up as
 * input_audio_buffer.append, {type: "stop"} commits it and asks for a response, and the model's
 * audio deltas come down as {type: "audio", data}. Event names of both the beta
 * (response.audio.delta) and the GA API (response.output_audio.delta) are understood. The
 * session uses push-to-talk (turn_detection null), matching the dashboard's button.
 */
import WebSocket from 'ws';
import { realSchedule, type Schedule } from '../../clock.ts';
import { parseJsonObject } from '../../json-object.ts';
import type { Log } from '../../log.ts';
import type { VoiceIo, VoiceSession } from './offline-voice.ts';
import type { RealtimeConfig } from './voice-settings.ts';

/** The Realtime API speaks PCM16 at 24 kHz in both directions. */
export const REALTIME_RATE = 24_000;

type Upstream = Record<string, unknown> & { type?: unknown };

/**
 * The endpoint is whatever the owner configured, so what it may make the cockpit hold is bounded:
 * a frame of at most 4 MiB (an audio delta is a few kilobytes; ws would take 100 MiB), and an
 * answer's transcript of at most 20,000 characters (as much as the agent log keeps of a row).
 */
const FRAME_LIMIT = 4 * 1024 * 1024;
const TRANSCRIPT_LIMIT = 20_000;
/**
 * What may wait for the endpoint to take it: a minute of speech, base64. An endpoint that never
 * finishes its handshake (for up to 10 s) or stops reading used to have the cockpit hold every
 * byte the browser sent meanwhile; past this the session ends instead.
 */
const UPLINK_LIMIT = 4 * 1024 * 1024;
/**
 * How long the endpoint may say nothing while an answer is due. One that took the request and
 * then went quiet, connection open, left the browser waiting for a `done` that never came.
 */
export const ANSWER_SILENCE_MS = 30_000;

export function createRealtimeVoice(deps: {
  io: VoiceIo;
  config: RealtimeConfig;
  instructions: string;
  log: Log;
  schedule?: Schedule;
}): VoiceSession {
  const { io, config } = deps;
  const schedule = deps.schedule ?? realSchedule;
  const target = `${config.url}${config.url.includes('?') ? '&' : '?'}model=${encodeURIComponent(config.model)}`;
  const upstream = new WebSocket(target, {
    headers: { 'OpenAI-Beta': 'realtime=v1', ...(config.key ? { Authorization: `Bearer ${config.key}` } : {}) },
    handshakeTimeout: 10_000,
    maxPayload: FRAME_LIMIT,
    perMessageDeflate: false,
  });
  const waiting: string[] = [];
  let waitingBytes = 0;
  let stopping = false;
  let closed = false;
  let transcript = '';
  /** Set while an answer is due: cancels the silence deadline. */
  let cancelSilence: (() => void) | undefined;
  const awaitAnswer = () => {
    if (closed) return;
    cancelSilence?.();
    cancelSilence = schedule(
      () => fail(`the realtime endpoint said nothing for ${ANSWER_SILENCE_MS / 1000} s while an answer was due`),
      ANSWER_SILENCE_MS,
    );
  };
  const answered = () => {
    cancelSilence?.();
    cancelSilence = undefined;
  };

  io.send({
    type: 'voice_meta',
    rate: REALTIME_RATE,
    provider: 'realtime',
    transcription: true,
    note: `Realtime voice: ${config.model} at ${new URL(config.url).host}.`,
  });

  const up = (event: Record<string, unknown>) => {
    if (closed) return;
    const text = JSON.stringify(event);
    const backlog = upstream.readyState === WebSocket.OPEN ? upstream.bufferedAmount : waitingBytes;
    if (backlog + text.length > UPLINK_LIMIT)
      return fail(
        `the realtime endpoint is not taking the audio as fast as it comes (over ${UPLINK_LIMIT / (1024 * 1024)} MiB waiting)`,
      );
    if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
    else if (upstream.readyState === WebSocket.CONNECTING) {
      waiting.push(text);
      waitingBytes += text.length;
    }
  };
  const fail = (message: string) => {
    if (closed) return;
    closed = true;
    answered();
    io.send({ type: 'error', error: message });
    io.end();
    upstream.terminate();
  };

  upstream.on('open', () => {
    upstream.send(
      JSON.stringify({
        type: 'session.update',
        session: {
          modalities: ['audio', 'text'],
          instructions: deps.instructions,
          voice: config.voice,
          input_audio_format: 'pcm16',
          output_audio_format: 'pcm16',
          turn_detection: null,
        },
      }),
    );
    for (const text of waiting.splice(0)) upstream.send(text);
    waitingBytes = 0;
  });
  upstream.on('message', (data) => {
    // The server is whatever the owner configured: anything that is not a JSON object is no
    // event. A `null` used to throw inside this listener, an uncaught exception in the cockpit.
    const event = parseJsonObject(data.toString()) as Upstream | undefined;
    if (event === undefined) return;
    // Any word from the endpoint shows it is still at work on the answer.
    if (cancelSilence) awaitAnswer();
    switch (event.type) {
      case 'response.audio.delta':
      case 'response.output_audio.delta':
        if (typeof event.delta === 'string') io.send({ type: 'audio', data: event.delta });
        break;
      case 'response.audio_transcript.delta':
      case 'response.output_audio_transcript.delta':
        if (typeof event.delta === 'string') transcript = (transcript + event.delta).slice(0, TRANSCRIPT_LIMIT);
        break;
      case 'conversation.item.input_audio_transcription.completed':
        if (typeof event.transcript === 'string')
          io.send({ type: 'transcript', role: 'user', text: event.transcript.slice(0, TRANSCRIPT_LIMIT) });
        break;
      case 'response.done':
        answered();
        if (transcript !== '') io.send({ type: 'transcript', role: 'assistant', text: transcript });
        transcript = '';
        io.send({ type: 'done' });
        if (stopping) {
          closed = true;
          io.end();
          upstream.close(1000);
        }
        break;
      case 'error': {
        const detail = (event.error as { message?: unknown } | undefined)?.message;
        fail(`the realtime model reported: ${typeof detail === 'string' ? detail.slice(0, 300) : 'an error'}`);
        break;
      }
    }
  });
  upstream.on('unexpected-response', (_req, res) =>
    fail(`the realtime endpoint refused the connection (${res.statusCode})`),
  );
  upstream.on('error', (error) => {
    deps.log.warn('realtime voice upstream error', { error: error.message });
    if ((error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
      return fail(`the realtime endpoint sent a frame over ${FRAME_LIMIT / (1024 * 1024)} MiB`);
    fail(`the realtime endpoint is unreachable: ${error.message}`);
  });
  upstream.on('close', () => fail('the realtime endpoint closed the session'));

  return {
    audio(chunk) {
      if (!stopping) up({ type: 'input_audio_buffer.append', audio: chunk.toString('base64') });
    },
    text(value) {
      if (typeof value !== 'string' || value.trim() === '')
        return io.send({ type: 'error', error: 'text must be a non-empty string' });
      up({
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: value.slice(0, 600) }] },
      });
      up({ type: 'response.create' });
      awaitAnswer();
    },
    stop() {
      if (stopping) return;
      stopping = true;
      up({ type: 'input_audio_buffer.commit' });
      up({ type: 'response.create' });
      awaitAnswer();
    },
    close() {
      closed = true;
      answered();
      if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
      else upstream.close(1000);
    },
  };
}
