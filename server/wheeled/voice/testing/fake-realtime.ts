/**
 * A fake OpenAI-Realtime-compatible speech server for tests: a WebSocket endpoint that checks
 * the handshake like the real API (Authorization bearer, `OpenAI-Beta: realtime=v1`, a model
 * query), records the client events, and answers a committed buffer or a text item with two
 * response.audio.delta frames, a transcript and response.done, as the API documents.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export interface FakeRealtime {
  url: string;
  events: Array<Record<string, unknown>>;
  /** Bytes of audio appended since start. */
  appendedBytes(): number;
  /** Resolves when a client's connection has closed. */
  disconnected(): Promise<void>;
  close(): Promise<void>;
}

/** Two 10 ms chunks of 24 kHz PCM16 (silence), base64. */
export const REALTIME_AUDIO = [Buffer.alloc(480).toString('base64'), Buffer.alloc(480).toString('base64')];

export async function startFakeRealtime(options: {
  key: string;
  /** Raw frames sent right after session.created, for a test of what a server may send. */
  oddFrames?: readonly string[];
  /** Answer with this many bytes of audio (in 48 KB deltas) instead of REALTIME_AUDIO: a flood. */
  audioBytes?: number;
  /** Take response.create and never answer it, connection open: an endpoint gone quiet. */
  mute?: boolean;
}): Promise<FakeRealtime> {
  const wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: ({ req }, done) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const ok =
        req.headers.authorization === `Bearer ${options.key}` &&
        req.headers['openai-beta'] === 'realtime=v1' &&
        url.searchParams.has('model');
      done(ok, ok ? undefined : 401);
    },
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const events: Array<Record<string, unknown>> = [];
  let appended = 0;
  let gone: () => void = () => undefined;
  const disconnected = new Promise<void>((resolve) => (gone = resolve));
  wss.on('connection', (ws) => {
    ws.on('close', () => gone());
    const send = (event: Record<string, unknown>) => ws.send(JSON.stringify(event));
    send({ type: 'session.created', session: { id: 'sess_fake' } });
    for (const frame of options.oddFrames ?? []) ws.send(frame);
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString()) as Record<string, unknown>;
      events.push(event);
      if (event.type === 'input_audio_buffer.append') appended += Buffer.from(String(event.audio), 'base64').length;
      if (event.type === 'session.update') send({ type: 'session.updated', session: event.session });
      if (event.type === 'response.create' && !options.mute) {
        const audio = options.audioBytes
          ? Array<string>(Math.ceil(options.audioBytes / 49_152)).fill(Buffer.alloc(49_152).toString('base64'))
          : REALTIME_AUDIO;
        for (const delta of audio) send({ type: 'response.audio.delta', response_id: 'r1', delta });
        send({ type: 'response.audio_transcript.delta', response_id: 'r1', delta: 'Hello from ' });
        send({ type: 'response.audio_transcript.delta', response_id: 'r1', delta: 'the rover.' });
        send({ type: 'response.done', response: { id: 'r1', status: 'completed' } });
      }
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/realtime`,
    events,
    appendedBytes: () => appended,
    disconnected: () => disconnected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
