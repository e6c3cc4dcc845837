/**
 * The microphone's receive path piece by piece: Ogg pages (checked by ffmpeg and against
 * ffmpeg's own checksums), Opus TOC arithmetic, RTP reordering and loss concealment, and the
 * ffmpeg decoder down to PCM16 mono 16 kHz.
 */
import { execFileSync } from 'node:child_process';
import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { createOggReader } from '../../sim/ogg-reader.ts';
import { waitFor } from '../../sim/test-helpers.ts';
import { createOggOpusWriter, MAX_OGG_PACKET_BYTES, oggCrc } from './ogg-opus-writer.ts';
import { startOpusDecoder } from './opus-decoder.ts';
import { createOpusRtpReceiver } from './opus-rtp-receiver.ts';
import { concealmentPacket, opusPacketSamples } from './opus-toc.ts';

/** A 440 Hz tone of `seconds`, encoded by ffmpeg/libopus into 20 ms packets. */
function tonePackets(seconds: number): { ogg: Buffer; packets: Buffer[] } {
  const ogg = execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-ac', '1', '-ar', '48000', '-c:a', 'libopus', '-frame_duration', '20', '-f', 'ogg', 'pipe:1'],
  ]);
  const packets: Buffer[] = [];
  createOggReader((p) => p.index >= 2 && packets.push(p.data)).push(ogg);
  return { ogg, packets };
}

function decodeWithFfmpeg(ogg: Buffer): Buffer {
  return execFileSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'ogg',
      '-i',
      'pipe:0',
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '16000',
      'pipe:1',
    ],
    {
      input: ogg,
    },
  );
}

const rtp = (sequenceNumber: number, timestamp: number, payload: Buffer): RtpPacket =>
  new RtpPacket(new RtpHeader({ sequenceNumber, timestamp, payloadType: 111, ssrc: 1 }), payload);

describe('Ogg Opus pages', () => {
  it('computes the checksum ffmpeg wrote into its own pages', () => {
    const { ogg } = tonePackets(0.2);
    const firstPageLength = 27 + (ogg[26] ?? 0) + [...ogg.subarray(27, 27 + (ogg[26] ?? 0))].reduce((a, b) => a + b, 0);
    const page = Buffer.from(ogg.subarray(0, firstPageLength));
    const stored = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    expect(oggCrc(page)).toBe(stored);
  });

  it('wraps packets so that ffmpeg decodes them, and splits long packets into 255-byte lacing', () => {
    const { packets } = tonePackets(1);
    const writer = createOggOpusWriter({ channels: 1, serial: 7 });
    const ogg = Buffer.concat([writer.headers(), ...packets.map((p) => writer.packet(p, opusPacketSamples(p)))]);
    const pcm = decodeWithFfmpeg(ogg);
    // Every packet's samples at 16 kHz, less the pre-skip (312 samples at 48 kHz).
    expect(pcm.length / 2).toBe((packets.length * 960 - 312) / 3);

    const long = Buffer.alloc(600, 0xab);
    const read: Buffer[] = [];
    createOggReader((p) => read.push(p.data)).push(Buffer.concat([writer.headers(), writer.packet(long, 960)]));
    expect(read.map((p) => p.length)).toEqual([19, 29, 600]);
    expect(read[2]!.equals(long)).toBe(true);
  });
});

describe('Opus TOC', () => {
  it('counts samples per packet and makes concealment packets of the same mode', () => {
    expect(opusPacketSamples(Buffer.from([0x78, 1, 2]))).toBe(960); // config 15: hybrid FB 20 ms, one frame
    expect(opusPacketSamples(Buffer.from([0x11, 1]))).toBe(1920 * 2); // SILK NB 40 ms, code 1: two frames
    expect(opusPacketSamples(Buffer.from([0xfb, 0x03]))).toBe(3 * 960); // CELT FB 20 ms, code 3 with 3 frames
    expect(opusPacketSamples(Buffer.alloc(0))).toBe(0);
    expect(opusPacketSamples(Buffer.from([0xfb, 6]))).toBe(5760); // 120 ms, the most a packet holds
    expect(opusPacketSamples(Buffer.from([0xfb, 7]))).toBe(0);
    expect(concealmentPacket(Buffer.from([0x7b, 9, 9]))).toEqual(Buffer.from([0x78]));
  });
});

describe('Opus RTP receiver', () => {
  const packet = (n: number): Buffer => Buffer.from([0xfc, n]); // CELT FB 20 ms, code 0

  it('puts reordered packets back in order', () => {
    const out: number[] = [];
    const receiver = createOpusRtpReceiver((p) => out.push(p[1] ?? -1));
    for (const i of [0, 2, 1, 3, 4]) receiver.push(rtp(100 + i, 5000 + i * 960, packet(i)));
    expect(out).toEqual([0, 1, 2, 3, 4]);
  });

  it('conceals a lost packet once the jitter buffer gives up on it, keeping the audio its length', () => {
    const out: Buffer[] = [];
    const receiver = createOpusRtpReceiver((p) => out.push(p));
    // Packet 2 never comes; the buffer waits for 60 ms of newer packets before moving on.
    for (const i of [0, 1, 3, 4, 5, 6, 7])
      receiver.push(rtp((65_534 + i) & 0xffff, (2 ** 32 - 1920 + i * 960) >>> 0, packet(i)));
    expect(out.map((p) => (p.length === 1 ? 'plc' : p[1]))).toEqual([0, 1, 'plc', 3, 4, 5, 6, 7]);
  });

  it('starts the order again when the sequence numbers begin again lower, and drops a lone stray', () => {
    const out: number[] = [];
    const receiver = createOpusRtpReceiver((p) => out.push(p[1] ?? -1));
    const at = (seq: number, i: number) => rtp(seq, 5000 + i * 960, packet(i));
    for (const i of [0, 1, 2]) receiver.push(at(100 + i, i));
    receiver.push(rtp(20_000, 77, packet(99)));
    receiver.push(at(103, 3));
    // The sender numbers afresh from 50,000 (behind 103 in the 16-bit space), its audio continuing.
    for (const i of [4, 5, 6]) receiver.push(at(50_000 + i, i));
    expect(out).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('takes a timestamp gone back more than a second as a new start, not as audio already played', () => {
    const out: number[] = [];
    const receiver = createOpusRtpReceiver((p) => out.push(p[1] ?? -1));
    for (const i of [0, 1]) receiver.push(rtp(100 + i, 900_000 + i * 960, packet(i)));
    // The sender's clock starts again lower (as after a restart of its pipeline): its packets go on.
    for (const i of [2, 3, 4]) receiver.push(rtp(100 + i, 1000 + i * 960, packet(i)));
    expect(out).toEqual([0, 1, 2, 3, 4]);
  });

  it('takes a packet claiming more than 120 ms as lost, and the packets after it still play', () => {
    const out: Buffer[] = [];
    const receiver = createOpusRtpReceiver((p) => out.push(p));
    receiver.push(rtp(100, 5000, packet(0)));
    // Code 3 with 63 frames of SILK NB 60 ms: 3.78 s in one packet, where RFC 6716 allows 120 ms.
    receiver.push(rtp(101, 5960, Buffer.from([0x1b, 63, 1])));
    for (const i of [2, 3, 4]) receiver.push(rtp(100 + i, 5000 + i * 960, packet(i)));
    expect(out.map((p) => (p.length === 1 ? 'plc' : p[1]))).toEqual([0, 'plc', 2, 3, 4]);
  });

  it('takes a payload longer than one Ogg page holds as lost: the decoder could not wrap it', () => {
    const out: Buffer[] = [];
    const ogg = createOggOpusWriter({ channels: 1 });
    const receiver = createOpusRtpReceiver((p, samples) => {
      ogg.packet(p, samples);
      out.push(p);
    });
    receiver.push(rtp(100, 5000, packet(0)));
    // A TOC of 20 ms and 65,025 bytes: no Opus packet is that long (frames of at most 1,275 bytes).
    receiver.push(rtp(101, 5960, Buffer.concat([packet(1), Buffer.alloc(MAX_OGG_PACKET_BYTES - 1)])));
    for (const i of [2, 3]) receiver.push(rtp(100 + i, 5000 + i * 960, packet(i)));
    expect(out.map((p) => (p.length === 1 ? 'plc' : p[1]))).toEqual([0, 'plc', 2, 3]);
  });
});

describe('Opus decoder (ffmpeg)', () => {
  it('turns packets into PCM16 mono 16 kHz as they are written', async () => {
    const { packets } = tonePackets(1);
    const chunks: Buffer[] = [];
    const exits: string[] = [];
    const decoder = startOpusDecoder({ log: silentLog, onPcm: (c) => chunks.push(c), onExit: (r) => exits.push(r) });
    try {
      for (const p of packets.slice(0, 25)) decoder.write(p, opusPacketSamples(p));
      // Half a second written: most of it is out without closing the input.
      await waitFor(() => Buffer.concat(chunks).length / 2 >= 7000, 5000);
      for (const p of packets.slice(25)) decoder.write(p, opusPacketSamples(p));
      decoder.write(concealmentPacket(packets[0]!), 960);
      // All of it (the concealed packet too), but the pre-skip and the one packet ffmpeg holds
      // back until the next arrives (measured: 336 samples with the resampler's delay).
      const written = ((packets.length + 1) * 960) / 3;
      await waitFor(() => Buffer.concat(chunks).length / 2 >= written - 104 - 2 * 320, 5000);
    } finally {
      decoder.close();
    }
    const pcm = Buffer.concat(chunks);
    const peak = Math.max(...Array.from({ length: pcm.length / 2 }, (_, i) => Math.abs(pcm.readInt16LE(i * 2))));
    expect(peak).toBeGreaterThan(3000);
    expect(exits).toEqual([]);
  });
});
