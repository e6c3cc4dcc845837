/**
 * The simulated microphone: quiet room plus what /sim/microphone makes it hear, the Ogg reader
 * behind its encoder, how the producer reads the consumer's answer for audio, and the route's
 * input checks.
 */
import { describe, expect, it } from 'vitest';
import { answeredAudioDirection } from './camera-session-audio.ts';
import { startSimDaemon } from './index.ts';
import { MIC_FRAME, createSimMicrophone } from './microphone.ts';
import { createOggReader } from './ogg-reader.ts';
import { api, waitFor } from './test-helpers.ts';

const peak = (pcm: Buffer): number =>
  Math.max(...Array.from({ length: pcm.length / 2 }, (_, i) => Math.abs(pcm.readInt16LE(i * 2))));

describe('simulated microphone', () => {
  it('sounds like a quiet room, then plays a clip once, in 20 ms frames, only while someone listens', async () => {
    let t = 0;
    const mic = createSimMicrophone(() => t);
    const frames: Buffer[] = [];
    const stop = mic.subscribe((pcm) => frames.push(pcm));
    t = 100;
    await waitFor(() => frames.length === 5, 2000, 5);
    expect(frames.every((f) => f.length === MIC_FRAME * 2 && peak(f) > 0 && peak(f) < 100)).toBe(true);
    mic.hear(Buffer.alloc(MIC_FRAME * 2 * 3, 0x40)); // three frames of a loud constant
    expect(mic.status()).toMatchObject({ queuedMs: 60, clips: 1, listeners: 1 });
    t = 200;
    await waitFor(() => frames.length === 10, 2000, 5);
    expect(frames.slice(5).map((f) => peak(f) > 10_000)).toEqual([true, true, true, false, false]);
    stop();
    expect(mic.status()).toMatchObject({ queuedMs: 0, listeners: 0 });
    mic.close();
  });
});

describe('Ogg reader', () => {
  it('reads packets across chunk and page boundaries', () => {
    const page = (segments: number[], body: Buffer): Buffer => {
      const header = Buffer.alloc(27 + segments.length);
      header.write('OggS', 0, 'latin1');
      header.writeUInt8(segments.length, 26);
      Buffer.from(segments).copy(header, 27);
      return Buffer.concat([header, body]);
    };
    // A 300-byte packet continued from the first page onto the second, then a 3-byte one.
    const stream = Buffer.concat([
      page([255], Buffer.alloc(255, 1)),
      page([45, 3], Buffer.concat([Buffer.alloc(45, 1), Buffer.from([7, 8, 9])])),
    ]);
    const packets: Buffer[] = [];
    const reader = createOggReader((p) => packets.push(p.data));
    for (let at = 0; at < stream.length; at += 11) reader.push(stream.subarray(at, at + 11));
    expect(packets.map((p) => p.length)).toEqual([300, 3]);
    expect(packets[1]).toEqual(Buffer.from([7, 8, 9]));
  });
});

describe("the producer reads the consumer's answer", () => {
  const answer = (audio: string): string =>
    ['v=0', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=recvonly', audio, 'a=mid:1'].join('\r\n');
  it.each([
    ['m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=recvonly', 'recvonly'],
    ['m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=inactive', 'inactive'],
    ['m=audio 0 UDP/TLS/RTP/SAVPF 111\r\na=recvonly', 'inactive'],
    ['', 'inactive'],
  ])('%j → %s', (audio, direction) => {
    expect(answeredAudioDirection(answer(audio))).toBe(direction);
  });
});

describe('POST /sim/microphone', () => {
  it('takes text or a file, refuses anything else, and counts no daemon request', async () => {
    const sim = await startSimDaemon();
    try {
      expect((await api(sim, 'POST', '/sim/microphone', {})).status).toBe(400);
      expect((await api(sim, 'POST', '/sim/microphone', { text: 'a', file: '/x' })).status).toBe(400);
      const missing = await api(sim, 'POST', '/sim/microphone', { file: '/no/such/file.wav' });
      expect(missing.status).toBe(400);
      const said = await api(sim, 'POST', '/sim/microphone', { text: 'Hello robot' });
      expect(said.status).toBe(200);
      expect((said.json as { microphone: unknown }).microphone).toMatchObject({ clips: 1, listeners: 0 });
      expect((said.json as { microphone: { queuedMs: number } }).microphone.queuedMs).toBeGreaterThan(300);
      expect(sim.counters()).toMatchObject({ httpRequests: 0, cameraAudioSessions: 0 });
    } finally {
      await sim.close();
    }
  });
});
