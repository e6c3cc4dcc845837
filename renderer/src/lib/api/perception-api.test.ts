import { describe, expect, it } from 'vitest';
import { readDoa, readTracking } from './perception-api.ts';

describe('readTracking', () => {
  it('reads the documented status', () => {
    expect(
      readTracking({
        enabled: true,
        detected: true,
        x: -0.21,
        y: 0.05,
        holds: [{ name: 'look', remaining: 1.4 }],
        paused: true,
        engine: 'daemon:yunet',
        weight: 0,
        error: null,
        reenabled: 0,
      }),
    ).toEqual({
      enabled: true,
      detected: true,
      x: -0.21,
      y: 0.05,
      holds: [{ name: 'look', remaining: 1.4 }],
      paused: true,
      engine: 'daemon:yunet',
      weight: 0,
      error: null,
      reenabled: 0,
    });
  });

  it('drops malformed holds and coordinates and refuses what is not a status', () => {
    const status = readTracking({ enabled: false, x: 'left', holds: [{ remaining: 2 }, { name: 'a', remaining: -1 }] });
    expect(status).toMatchObject({ x: null, y: null, holds: [{ name: 'a', remaining: 0 }], detected: false });
    expect(readTracking(undefined)).toBeNull();
    expect(readTracking({ detected: true })).toBeNull();
  });
});

describe('readDoa', () => {
  it('reads the documented status and defaults the counters', () => {
    expect(readDoa({ enabled: true, bearing: 31.2, speech: true, why: 'listening 4/6', turns: 2 })).toEqual({
      enabled: true,
      bearing: 31.2,
      speech: true,
      why: 'listening 4/6',
      turns: 2,
      windupRefusals: 0,
      sign: { agree: 0, disagree: 0 },
      lastTurn: null,
      error: null,
    });
    expect(readDoa([])).toBeNull();
  });

  it('reads the last turn, and drops one without its numbers', () => {
    const plan = { headYaw: 30, bodyYaw: null, pitch: -5 };
    const lastTurn = { at: '2026-01-01T00:00:00.000Z', bearing: 30.5, plan };
    expect(readDoa({ enabled: true, lastTurn })?.lastTurn).toEqual(lastTurn);
    expect(readDoa({ enabled: true, lastTurn: { ...lastTurn, plan: { headYaw: 'left' } } })?.lastTurn).toBeNull();
  });
});
