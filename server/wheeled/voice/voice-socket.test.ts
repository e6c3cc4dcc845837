import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openSocket, startWheeledHarness, type OpenedSocket, type WheeledHarness } from '../testing/wheeled-harness.ts';
import { NO_MODEL_LINE } from './offline-voice.ts';
import type { SpeechEngine } from '../../speech/engine.ts';
import { pcm16Wav, pcmFromWav } from '../../speech/wav.ts';
import { pcmFrames, resamplePcm16 } from './pcm.ts';
import { OFFLINE_RATE } from './speech-out.ts';
import { REALTIME_AUDIO, startFakeRealtime, type FakeRealtime } from './testing/fake-realtime.ts';

let h: WheeledHarness | undefined;
let socket: OpenedSocket | undefined;
let extra: { close(): Promise<void> | void } | undefined;
afterEach(async () => {
  socket?.ws.close();
  socket = undefined;
  await h?.close();
  h = undefined;
  await extra?.close();
  extra = undefined;
});

const voiceUrl = (harness: WheeledHarness) =>
  `${harness.wsUrl}/ws/voice?token=${encodeURIComponent(harness.serviceToken)}`;
/** One second of a quiet 440 Hz tone at the offline rate. */
const tone = () => {
  const pcm = Buffer.alloc(OFFLINE_RATE * 2);
  for (let i = 0; i < OFFLINE_RATE; i += 1)
    pcm.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / OFFLINE_RATE)), i * 2);
  return pcm;
};
const audioBytes = (s: OpenedSocket) =>
  s.frames.filter((f) => f.type === 'audio').reduce((n, f) => n + Buffer.from(String(f.data), 'base64').length, 0);

describe('PCM16 helpers', () => {
  it('round-trips WAV, resamples by the rate ratio and cuts 100 ms frames', () => {
    const pcm = tone();
    expect(pcmFromWav(pcm16Wav(pcm, OFFLINE_RATE))).toEqual({ pcm, rate: OFFLINE_RATE });
    expect(resamplePcm16(pcm, OFFLINE_RATE, 16_000).length).toBe(16_000 * 2);
    expect(resamplePcm16(pcm, OFFLINE_RATE, OFFLINE_RATE)).toBe(pcm);
    const frames = pcmFrames(pcm, OFFLINE_RATE);
    expect(frames).toHaveLength(10);
    expect(frames[0]?.length).toBe(4410);
  });
});

describe('/ws/voice, offline', () => {
  it('answers voice_meta first, then audio frames of the honest "no model configured" line, then closes', async () => {
    h = await startWheeledHarness();
    socket = await openSocket(voiceUrl(h));
    const meta = await socket.next(() => true);
    expect(meta).toMatchObject({
      type: 'voice_meta',
      rate: OFFLINE_RATE,
      provider: 'offline',
      transcription: false,
      note: expect.stringMatching(/No model is configured/),
    });
    socket.ws.send(tone());
    socket.ws.send(JSON.stringify({ type: 'stop' }));
    expect(await socket.closed).toBe(1000);
    expect(socket.frames[0]?.type).toBe('voice_meta');
    expect(socket.frames.filter((f) => f.type === 'voice_meta')).toHaveLength(1);
    const audio = socket.frames.filter((f) => f.type === 'audio');
    expect(audio.length).toBeGreaterThan(10);
    // espeak-ng speaking NO_MODEL_LINE takes seconds, not milliseconds.
    expect(audioBytes(socket) / 2 / OFFLINE_RATE).toBeGreaterThan(NO_MODEL_LINE.length / 40);
    expect(socket.frames.at(-1)).toEqual({ type: 'done' });
  }, 20_000);

  it('says it cannot understand speech offline when no transcription is configured, and answers typed text aloud', async () => {
    h = await startWheeledHarness({ model: true });
    socket = await openSocket(voiceUrl(h));
    expect(await socket.next((f) => f.type === 'voice_meta')).toMatchObject({
      transcription: false,
      note: expect.stringMatching(/not transcribed/),
    });
    socket.ws.send(JSON.stringify({ type: 'text', text: 'hello rover' }));
    expect(await socket.next((f) => f.type === 'transcript')).toEqual({
      type: 'transcript',
      role: 'assistant',
      text: 'You said: hello rover',
    });
    await socket.next((f) => f.type === 'done', 15_000);
    expect(audioBytes(socket)).toBeGreaterThan(OFFLINE_RATE);
    socket.ws.send(tone());
    socket.ws.send(JSON.stringify({ type: 'stop' }));
    expect(await socket.closed).toBe(1000);
    expect(socket.frames.filter((f) => f.type === 'done')).toHaveLength(2);
  }, 20_000);

  it('transcribes through a configured endpoint, lets the agent answer and speaks the reply', async () => {
    const uploads: string[] = [];
    const stt: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('latin1');
        uploads.push(
          `${req.method} ${req.url} ${req.headers['content-type']?.split(';')[0]} ${body.includes('RIFF') ? 'wav' : 'no-wav'} ${/name="model"\r\n\r\nwhisper-1/.test(body) ? 'model' : 'no-model'}`,
        );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: 'go left' }));
      });
    });
    await new Promise<void>((resolve) => stt.listen(0, '127.0.0.1', resolve));
    extra = { close: () => new Promise<void>((resolve) => stt.close(() => resolve())) };
    h = await startWheeledHarness({ model: true });
    await h.call('/api/console/voice', {
      method: 'PUT',
      body: { transcription: { baseUrl: `http://127.0.0.1:${(stt.address() as AddressInfo).port}/v1` } },
    });
    socket = await openSocket(voiceUrl(h));
    expect(await socket.next((f) => f.type === 'voice_meta')).toMatchObject({ transcription: true });
    socket.ws.send(tone());
    socket.ws.send(JSON.stringify({ type: 'stop' }));
    expect(await socket.closed).toBe(1000);
    expect(uploads).toEqual(['POST /v1/audio/transcriptions multipart/form-data wav model']);
    expect(socket.frames.filter((f) => f.type === 'transcript')).toEqual([
      { type: 'transcript', role: 'user', text: 'go left' },
      { type: 'transcript', role: 'assistant', text: 'You said: go left' },
    ]);
    expect(audioBytes(socket)).toBeGreaterThan(0);
  }, 20_000);
});

describe('/ws/voice, offline, a long answer', () => {
  it('sends all of a spoken answer longer than the send buffer to a browser that reads, and closes 1000', async () => {
    // Four minutes of audio (espeak-ng may write up to 16 MiB, some six minutes): more than the
    // 4 MiB that may wait unsent for a browser, if it were all handed to the socket at once.
    const seconds = 240;
    const speech: SpeechEngine = {
      name: 'long',
      synthesize: () =>
        Promise.resolve({ wav: pcm16Wav(Buffer.alloc(seconds * OFFLINE_RATE * 2), OFFLINE_RATE), seconds }),
    };
    h = await startWheeledHarness({ speech });
    socket = await openSocket(voiceUrl(h));
    socket.ws.send(JSON.stringify({ type: 'stop' }));
    expect(await socket.closed).toBe(1000);
    expect(audioBytes(socket)).toBe(seconds * OFFLINE_RATE * 2);
    expect(socket.frames.at(-1)).toEqual({ type: 'done' });
  });
});

describe('/ws/voice, offline, an answer longer than one clip', () => {
  it('speaks all of an answer of some seven minutes, more than espeak-ng writes in one clip', async () => {
    const answer = 'The rover can drive forward, turn left and right, and tell you what it sees. '.repeat(90).trim();
    h = await startWheeledHarness({ model: () => ({ kind: 'answer', text: answer }) });
    socket = await openSocket(voiceUrl(h));
    socket.ws.send(JSON.stringify({ type: 'text', text: 'tell me everything' }));
    await socket.next((f) => f.type === 'done', 15_000);
    expect(socket.frames.filter((f) => f.type === 'error')).toEqual([]);
    expect(socket.frames).toContainEqual({ type: 'transcript', role: 'assistant', text: answer });
    // espeak-ng speaks this sentence in about 2.7 s.
    expect(audioBytes(socket) / 2 / OFFLINE_RATE).toBeGreaterThan(90 * 2);
  });
});

describe('/ws/voice, realtime', () => {
  let realtime: FakeRealtime;

  /** A fake realtime endpoint, a server set to use it, and a voice socket open on it. */
  async function realtimeSession(
    options: Omit<Parameters<typeof startFakeRealtime>[0], 'key'> = {},
  ): Promise<OpenedSocket> {
    realtime = await startFakeRealtime({ key: 'rt-key', ...options });
    extra = realtime;
    h = await startWheeledHarness();
    await h.call('/api/console/voice', {
      method: 'PUT',
      body: { provider: 'realtime', realtime: { url: realtime.url, key: 'rt-key', voice: 'verse' } },
    });
    const opened = await openSocket(voiceUrl(h));
    socket = opened;
    return opened;
  }

  it('relays microphone audio to a realtime speech model and its audio back', async () => {
    realtime = await startFakeRealtime({ key: 'rt-key' });
    extra = realtime;
    h = await startWheeledHarness();
    const saved = await h.call('/api/console/voice', {
      method: 'PUT',
      body: { provider: 'realtime', realtime: { url: realtime.url, key: 'rt-key', voice: 'verse' } },
    });
    expect(saved.json).toMatchObject({
      provider: 'realtime',
      realtime: { url: realtime.url, hasKey: true, voice: 'verse' },
    });
    expect(saved.text).not.toContain('rt-key');
    socket = await openSocket(voiceUrl(h));
    expect(await socket.next(() => true)).toMatchObject({ type: 'voice_meta', rate: 24_000, provider: 'realtime' });
    socket.ws.send(Buffer.alloc(4800));
    socket.ws.send(Buffer.alloc(4800));
    socket.ws.send(JSON.stringify({ type: 'stop' }));
    expect(await socket.closed).toBe(1000);
    expect(socket.frames.filter((f) => f.type === 'audio').map((f) => f.data)).toEqual(REALTIME_AUDIO);
    expect(socket.frames).toContainEqual({ type: 'transcript', role: 'assistant', text: 'Hello from the rover.' });
    expect(realtime.appendedBytes()).toBe(9600);
    expect(realtime.events.map((e) => e.type)).toEqual([
      'session.update',
      'input_audio_buffer.append',
      'input_audio_buffer.append',
      'input_audio_buffer.commit',
      'response.create',
    ]);
    expect(realtime.events[0]).toMatchObject({
      session: { voice: 'verse', input_audio_format: 'pcm16', turn_detection: null },
    });
  });

  it('skips what a realtime server sends that is not an event, and goes on', async () => {
    const oddFrames = ['null', '5', '"text"', '[1,2]', '{"type":7}', '{"type":"response.audio.delta","delta":5}', '{'];
    socket = await realtimeSession({ oddFrames });
    socket.ws.send(Buffer.alloc(4800));
    socket.ws.send(JSON.stringify({ type: 'stop' }));
    expect(await socket.closed).toBe(1000);
    expect(socket.frames.filter((f) => f.type === 'audio').map((f) => f.data)).toEqual(REALTIME_AUDIO);
    expect(socket.frames).toContainEqual({ type: 'transcript', role: 'assistant', text: 'Hello from the rover.' });
    expect(socket.frames.filter((f) => f.type === 'error')).toEqual([]);
  });

  it('keeps at most 20,000 characters of an answer transcript', async () => {
    const long = Array.from({ length: 25 }, () =>
      JSON.stringify({ type: 'response.audio_transcript.delta', delta: 'a'.repeat(1000) }),
    );
    socket = await realtimeSession({ oddFrames: long });
    socket.ws.send(JSON.stringify({ type: 'stop' }));
    expect(await socket.closed).toBe(1000);
    expect(socket.frames).toContainEqual({ type: 'transcript', role: 'assistant', text: 'a'.repeat(20_000) });
  });

  it('ends the session on a frame over 4 MiB', async () => {
    // An event of no interest, 5 MiB long: held whole, it was ignored.
    const huge = JSON.stringify({ type: 'rate_limits.updated', pad: 'x'.repeat(5 * 1024 * 1024) });
    socket = await realtimeSession({ oddFrames: [huge] });
    expect(await socket.next((f) => f.type === 'error')).toEqual({
      type: 'error',
      error: 'the realtime endpoint sent a frame over 4 MiB',
    });
    expect(await socket.closed).toBe(1000);
  });

  it('ends the session with 1013 when the browser stops reading, instead of buffering on', async () => {
    // 32 MiB of audio at once, to a browser that reads nothing: more than the socket's buffers hold.
    socket = await realtimeSession({ audioBytes: 32 * 1024 * 1024 });
    await socket.next((f) => f.type === 'voice_meta');
    socket.ws.pause();
    socket.ws.send(JSON.stringify({ type: 'stop' }));
    // The session gave up: it closed its realtime connection while the browser still read nothing.
    await realtime.disconnected();
    socket.ws.resume();
    expect(await socket.closed).toBe(1013);
    const sent = Math.ceil((32 * 1024 * 1024) / 49_152);
    expect(socket.frames.filter((f) => f.type === 'audio').length).toBeLessThan(sent);
  });

  it('reports a refused realtime connection as an error frame', async () => {
    realtime = await startFakeRealtime({ key: 'right-key' });
    extra = realtime;
    h = await startWheeledHarness();
    await h.call('/api/console/voice', {
      method: 'PUT',
      body: { provider: 'realtime', realtime: { url: realtime.url, key: 'wrong-key' } },
    });
    socket = await openSocket(voiceUrl(h));
    expect(await socket.next((f) => f.type === 'error')).toMatchObject({
      error: expect.stringMatching(/refused the connection \(401\)/),
    });
    expect(await socket.closed).toBe(1000);
  });
});
