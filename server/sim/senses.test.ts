import { describe, expect, it } from 'vitest';
import { looksLikeAudio, makeWav, wavDuration } from './audio-file.ts';
import { createDoa, doaAngle } from './doa.ts';
import { boundaryOf, parseMultipart } from './multipart.ts';
import { poseFromXyzrpy } from './pose.ts';
import { createTracking, observeFace } from './tracking.ts';

const DEG = Math.PI / 180;

describe('WAV duration from the header', () => {
  it('reads mono 16-bit and stereo 24-bit files', () => {
    expect(wavDuration(makeWav(2.5))).toBeCloseTo(2.5, 9);
    expect(wavDuration(makeWav(1.2, 44100, 2, 24))).toBeCloseTo(1.2, 4);
  });

  it('skips chunks before data and copes with streamed placeholder sizes', () => {
    const wav = makeWav(1, 8000);
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([4, 0, 0, 0]), Buffer.from('INFO')]);
    const withList = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
    expect(wavDuration(withList)).toBeCloseTo(1, 9);
    const streamed = Buffer.from(wav);
    streamed.writeUInt32LE(0xffffffff, 40);
    expect(wavDuration(streamed)).toBeCloseTo(1, 9);
  });

  it('refuses what is not a WAV and probes other containers by magic number', () => {
    expect(wavDuration(Buffer.from('hello world, not audio'))).toBeNull();
    expect(looksLikeAudio('.wav', Buffer.from('RIFF....junk'))).toBe(false);
    expect(looksLikeAudio('.ogg', Buffer.from('OggS\0\0\0'))).toBe(true);
    expect(looksLikeAudio('.mp3', Buffer.from('ID3\x04\0'))).toBe(true);
    expect(looksLikeAudio('.mp3', Buffer.from('#!/bin/sh'))).toBe(false);
  });
});

describe('multipart reader', () => {
  it('extracts the named file part byte for byte', () => {
    const data = Buffer.from([0, 1, 2, 13, 10, 45, 45, 255]);
    const body = Buffer.concat([
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n'),
      Buffer.from(
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n',
      ),
      data,
      Buffer.from('\r\n--XyZ--\r\n'),
    ]);
    expect(boundaryOf('multipart/form-data; boundary=XyZ')).toBe('XyZ');
    const parts = parseMultipart(body, 'XyZ');
    expect(parts.map((p) => p.name)).toEqual(['note', 'file']);
    expect(parts[1]?.filename).toBe('a.wav');
    expect(parts[1]?.data.equals(data)).toBe(true);
  });
});

describe('direction of arrival (docs/daemon.md, "State")', () => {
  it('uses 0 = left, π/2 = front, π = right, relative to the head, mirrored front/back', () => {
    expect(doaAngle(0, 0)).toBeCloseTo(Math.PI / 2, 12);
    expect(doaAngle(90, 0)).toBeCloseTo(0, 12);
    expect(doaAngle(-90, 0)).toBeCloseTo(Math.PI, 12);
    expect(doaAngle(30, 30 * DEG)).toBeCloseTo(Math.PI / 2, 12);
    expect(doaAngle(150, 0)).toBeCloseTo(doaAngle(30, 0), 12);
  });

  it('is null on the first read after 60 s idle, then noisy values of a few degrees', () => {
    const doa = createDoa();
    doa.speaker.bearing = 20;
    doa.speaker.speaking = true;
    expect(doa.read(100, 0)).toBeNull();
    expect(doa.read(100.05, 0)).toBeNull();
    for (let t = 100.2; t < 110; t += 0.1) {
      const r = doa.read(t, 0);
      expect(r?.speech_detected).toBe(true);
      expect(Math.abs((r?.angle ?? 0) - 70 * DEG)).toBeLessThanOrEqual(9 * DEG + 1e-9);
    }
    expect(doa.read(175, 0)).toBeNull();
  });
});

describe('face tracking view (docs/daemon.md, "Media")', () => {
  const ahead = poseFromXyzrpy({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 });

  it('reports a face relative to the head, x right and y down, with a ~65°×50° view', () => {
    expect(observeFace({ yaw: 0, pitch: 0 }, ahead, 1)).toMatchObject({ detected: true, x: 0, y: 0, ts: 1 });
    const left = observeFace({ yaw: 20 * DEG, pitch: 10 * DEG }, ahead, 1);
    expect(left.x).toBeCloseTo(-20 / 32.5, 9);
    expect(left.y).toBeCloseTo(10 / 25, 9);
    expect(observeFace({ yaw: 40 * DEG, pitch: 0 }, ahead, 1).detected).toBe(false);
    const turned = poseFromXyzrpy({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 40 * DEG });
    expect(observeFace({ yaw: 40 * DEG, pitch: 0 }, turned, 1).detected).toBe(true);
  });

  it('eases the aim toward the face and blends it in at the requested weight', () => {
    const tracking = createTracking();
    tracking.face = { yaw: 20 * DEG, pitch: 0 };
    tracking.enable(1);
    let head = ahead;
    for (let i = 0; i < 100; i += 1) {
      tracking.step(i * 0.02, i * 0.02, head);
      head = tracking.apply(ahead);
    }
    expect(poseYaw(head)).toBeCloseTo(20 * DEG, 3);
    tracking.enable(0.5);
    tracking.step(3, 3, head);
    expect(poseYaw(tracking.apply(ahead))).toBeCloseTo(10 * DEG, 2);
  });
});

function poseYaw(p: ReturnType<typeof poseFromXyzrpy>): number {
  return Math.atan2(2 * (p.q[0] * p.q[3] + p.q[1] * p.q[2]), 1 - 2 * (p.q[2] ** 2 + p.q[3] ** 2));
}
