import { describe, expect, it } from 'vitest';
import { cameraReadouts, formatAge, formatDegrees, formatDelay, formatFps } from './camera-format.ts';

describe('camera readouts', () => {
  it('formats ages from tenths to minutes', () => {
    expect(formatAge(null)).toBe('—');
    expect(formatAge(66)).toBe('0.1 s');
    expect(formatAge(-5)).toBe('0.0 s');
    expect(formatAge(45_400)).toBe('45 s');
    expect(formatAge(600_000)).toBe('10 min');
  });

  it('formats rates and delays', () => {
    expect(formatFps(14.93)).toBe('14.9 fps');
    expect(formatFps(null)).toBe('—');
    expect(formatDelay(12.4)).toBe('12 ms');
    expect(formatDelay(1520)).toBe('1.5 s');
    expect(formatDelay(Number.NaN)).toBe('—');
  });

  it('formats signed degrees with a true minus', () => {
    expect(formatDegrees(12.46)).toBe('+12.5°');
    expect(formatDegrees(-3)).toBe('\u22123.0°');
    expect(formatDegrees(-0.01)).toBe('+0.0°');
  });
});

describe('cameraReadouts', () => {
  const facts = {
    path: 'socket' as const,
    fresh: true,
    shown: 42,
    capturedAt: 10_000,
    fps: 14.96,
    latencyMs: 12,
    serverFps: 15,
  };

  it('shows what the socket path measures, and no rate once pictures stop', () => {
    expect(cameraReadouts(facts, 10_250).map((r) => r.value)).toEqual([
      '42',
      '0.3 s',
      '15.0 fps',
      '12 ms',
      'Socket JPEG',
    ]);
    expect(cameraReadouts({ ...facts, fresh: false }, 13_000)[2]?.value).toBe('0.0 fps');
  });

  it('shows only the cockpit rate on the MJPEG path', () => {
    expect(cameraReadouts({ ...facts, path: 'mjpeg' }, 0).map((r) => r.value)).toEqual([
      '—',
      '—',
      '15.0 fps at the cockpit',
      '—',
      'MJPEG',
    ]);
  });

  it('names the path in use, and why WebRTC was left', () => {
    expect(cameraReadouts({ ...facts, path: 'webrtc' }, 10_250).at(-1)).toEqual({
      label: 'Video path',
      value: 'WebRTC (relay)',
    });
    expect(cameraReadouts({ ...facts, fallbackReason: 'the camera has no H.264 RTP' }, 0).at(-1)?.value).toBe(
      'Socket JPEG (WebRTC: the camera has no H.264 RTP)',
    );
  });
});
