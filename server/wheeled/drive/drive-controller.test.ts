import { describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { createDriveController, OPERATOR_HOLD_MS } from './drive-controller.ts';
import { driverOf } from './driver.ts';
import type { DriveFrame } from './frame-input.ts';
import type { DriveCommand } from './types.ts';

const frame = (linear: number, duration = 0.5): DriveFrame => ({ linear, angular: 0, duration, clamped: false });
const operator = { driver: 'operator' as const, owner: 'ws:op' };
const thinker = { driver: 'thinker' as const, owner: 'http:persona' };

function rig(scale = 0.5) {
  let now = 1_000_000;
  const commands: Array<{ command: DriveCommand; until: number } | 'stop'> = [];
  const controller = createDriveController({
    backend: {
      drive: (command, until) => void commands.push({ command, until }),
      stop: () => void commands.push('stop'),
    },
    scale: () => scale,
    log: silentLog,
    now: () => now,
  });
  return { controller, commands, advance: (ms: number) => void (now += ms), now: () => now };
}

describe('drive controller', () => {
  it('scales a frame by the speed preset and gives it its own deadline', () => {
    const r = rig(0.35);
    const outcome = r.controller.frame(frame(1, 0.4), operator);
    expect(outcome).toMatchObject({
      ok: true,
      driver: 'operator',
      applied: { linear: 1, angular: 0, duration: 0.4 },
      scale: 0.35,
    });
    expect(r.commands).toEqual([{ command: { linear: 0.35, angular: 0 }, until: r.now() + 400 }]);
    expect(r.controller.active()).toMatchObject({ driver: 'operator', owner: 'ws:op' });
    r.advance(400);
    expect(r.controller.active()).toBeNull();
  });

  it('lets the thinker drive only through an open gate', () => {
    const r = rig();
    expect(() => r.controller.frame(frame(0.5), thinker)).toThrow(expect.objectContaining({ code: 'AUTH_FORBIDDEN' }));
    expect(() => r.controller.setGate(true, 'thinker')).toThrow(expect.objectContaining({ code: 'AUTH_FORBIDDEN' }));
    expect(r.controller.setGate(true, 'operator')).toMatchObject({ open: true });
    expect(r.controller.frame(frame(0.5), thinker).driver).toBe('thinker');
    // Closing the gate stops the thinker at once.
    r.controller.setGate(false, 'operator');
    expect(r.commands.at(-1)).toBe('stop');
    expect(r.controller.active()).toBeNull();
  });

  it('gives operator frames precedence: they replace a thinker at once, and hold it off for a moment', () => {
    const r = rig();
    r.controller.setGate(true, 'operator');
    r.controller.frame(frame(0.3), thinker);
    r.controller.frame(frame(-1, 0.2), operator);
    expect(r.controller.active()?.driver).toBe('operator');
    expect(() => r.controller.frame(frame(1), thinker)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    r.advance(200 + OPERATOR_HOLD_MS - 1);
    expect(() => r.controller.frame(frame(1), thinker)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    r.advance(1);
    expect(r.controller.frame(frame(1), thinker).driver).toBe('thinker');
  });

  it('stops the frame of a socket that goes away, and only its own', () => {
    const r = rig();
    r.controller.frame(frame(1), operator);
    r.controller.release('ws:someone-else');
    expect(r.controller.active()).not.toBeNull();
    r.controller.release('ws:op');
    expect(r.commands.at(-1)).toBe('stop');
    expect(r.controller.active()).toBeNull();
  });

  it('takes the driver from the signed subject', () => {
    expect(driverOf({ subject: 'thinker' })).toBe('thinker');
    expect(driverOf({ subject: 'thinker:night-shift' })).toBe('thinker');
    expect(driverOf({ subject: 'owner' })).toBe('operator');
    expect(driverOf({ subject: 'thinkers' })).toBe('operator');
    expect(driverOf({})).toBe('operator');
  });
});
