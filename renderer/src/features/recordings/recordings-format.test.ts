import { describe, expect, it } from 'vitest';
import {
  cameraLine,
  cameraRecorded,
  downloadName,
  formatBytes,
  formatLength,
  minuteChoices,
  recorderLine,
} from './recordings-format.ts';

const status = {
  recording: true,
  camera: true,
  cameraFps: 5,
  maxMinutes: 10,
  maxBytes: 500 * 1024 * 1024,
  ringBytes: 3 * 1024 * 1024,
  ringSeconds: 125,
  channels: {},
  dropped: 0,
  pendingStops: [],
  problem: null,
};

describe('recordings card words', () => {
  it('says what the ring holds and whether the camera is recorded', () => {
    expect(recorderLine(status)).toBe(
      'Recording always: 2 min 5 s (3.0 MB) held of the last 10 min, at most 500.0 MB.',
    );
    expect(cameraLine(status)).toContain('5 frames per second');
    expect(cameraLine({ ...status, camera: false })).toContain('off');
    expect(recorderLine(null)).toContain('Reading');
    expect(cameraRecorded(status)).toBe(true);
    expect(cameraRecorded({ ...status, cameraFps: 0 })).toBe(false);
    expect(cameraRecorded({ ...status, camera: false })).toBe(false);
  });

  it('formats sizes, lengths, file names and minute choices', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatLength(90)).toBe('1 min 30 s');
    expect(formatLength(12.4)).toBe('12 s');
    expect(downloadName('STOP at 2026-11-21 12:00:00 UTC')).toBe('STOP at 2026-11-21 12-00-00 UTC.mcap');
    expect(downloadName('///')).toBe('-.mcap');
    expect(minuteChoices(10)).toEqual([1, 2, 5, 10]);
    expect(minuteChoices(7)).toEqual([1, 2, 5, 7]);
  });
});
