import { describe, expect, it } from 'vitest';
import { combineDrives, driveKey, keysDrive, padDrive, stickDrive } from './drive-input.ts';
import { createDriveLoop, FRAME_EVERY_MS, FRAME_SECONDS, type DriveMessage } from './drive-loop.ts';

const key = (code: string, extra: Partial<{ ctrlKey: boolean; altKey: boolean }> = {}) => ({
  key: '',
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...extra,
});

describe('drive inputs', () => {
  it('maps arrows and WASD to forward, back, left and right, leaving shortcuts alone', () => {
    expect(driveKey(key('ArrowUp'))).toBe('forward');
    expect(driveKey(key('KeyA'))).toBe('left');
    expect(driveKey(key('KeyD', { ctrlKey: true }))).toBeNull();
    expect(driveKey(key('KeyQ'))).toBeNull();
    expect(keysDrive(['forward', 'left'])).toEqual({ linear: 1, angular: 1 });
    expect(keysDrive(['forward', 'back', 'right'])).toEqual({ linear: 0, angular: -1 });
  });

  it('reads the pad and the stick: up is forward, right turns clockwise', () => {
    expect(padDrive(0, -50, 50)).toEqual({ linear: 1, angular: 0 });
    expect(padDrive(100, 0, 50)).toEqual({ linear: 0, angular: -1 });
    expect(padDrive(2, 2, 50)).toEqual({ linear: 0, angular: 0 });
    expect(stickDrive([0.05, -1])).toEqual({ linear: 1, angular: 0 });
    expect(stickDrive([1, 0])).toEqual({ linear: 0, angular: -1 });
    expect(
      combineDrives([
        { linear: 1, angular: 0 },
        { linear: 0.5, angular: -2 },
      ]),
    ).toEqual({ linear: 1, angular: -1 });
  });
});

describe('hold-to-drive loop', () => {
  function rig() {
    const sent: DriveMessage[] = [];
    let tick: (() => void) | null = null;
    const loop = createDriveLoop({
      send: (m) => (sent.push(m), true),
      setTimer: (run, ms) => {
        expect(ms).toBe(FRAME_EVERY_MS);
        tick = run;
        return 1;
      },
      clearTimer: () => void (tick = null),
    });
    return { loop, sent, tick: () => tick?.(), running: () => tick !== null };
  }

  it('sends a frame at once and every period while held, then one stop on release', () => {
    const r = rig();
    r.loop.set('keys', { linear: 1, angular: 0 });
    r.tick();
    r.tick();
    expect(r.sent).toEqual(Array(3).fill({ type: 'control', linear: 1, angular: 0, duration: FRAME_SECONDS }));
    r.loop.set('pad', { linear: 0, angular: -0.5 });
    expect(r.sent.at(-1)).toEqual({ type: 'control', linear: 1, angular: -0.5, duration: FRAME_SECONDS });
    r.loop.set('keys', { linear: 0, angular: 0 });
    r.loop.set('pad', { linear: 0, angular: 0 });
    expect(r.sent.at(-1)).toEqual({ stop: true });
    expect(r.running()).toBe(false);
    expect(r.sent.filter((m) => 'stop' in m)).toHaveLength(1);
  });

  it('stops everything on demand', () => {
    const r = rig();
    r.loop.set('gamepad', { linear: -1, angular: 0 });
    r.loop.stop();
    expect(r.sent.at(-1)).toEqual({ stop: true });
    expect(r.loop.current()).toEqual({ linear: 0, angular: 0 });
    expect(r.running()).toBe(false);
  });
});
