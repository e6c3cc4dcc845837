import { describe, expect, it } from 'vitest';
import type { DoaStatus, TrackingStatus } from '../../lib/api/perception-api.ts';
import {
  bearingPoint,
  bearingWords,
  doaLine,
  formatSeconds,
  holdsLeft,
  pointBearing,
  trackingLine,
} from './perception-format.ts';

const tracking: TrackingStatus = {
  enabled: true,
  detected: false,
  x: null,
  y: null,
  holds: [],
  paused: false,
  engine: 'sim:geometry',
  weight: 1,
  error: null,
  reenabled: 0,
};

const doa: DoaStatus = {
  enabled: true,
  bearing: 31.2,
  speech: true,
  why: 'listening 4/6',
  turns: 2,
  windupRefusals: 1,
  sign: { agree: 12, disagree: 1 },
  lastTurn: null,
  error: null,
};

describe('holdsLeft', () => {
  it('counts down from the status and drops holds that ran out, soonest first', () => {
    const holds = [
      { name: 'look', remaining: 1.4 },
      { name: 'speaking', remaining: 20 },
      { name: 'nod', remaining: 5 },
    ];
    expect(holdsLeft(holds, 2000)).toEqual([
      { name: 'nod', seconds: 3 },
      { name: 'speaking', seconds: 18 },
    ]);
    expect(holdsLeft(holds, -50)[0]).toEqual({ name: 'look', seconds: 1.4 });
  });

  it('formats tenths under ten seconds, whole seconds above', () => {
    expect(formatSeconds(3.04)).toBe('3.0 s');
    expect(formatSeconds(17.2)).toBe('18 s');
  });
});

describe('compass geometry', () => {
  const c = { x: 50, y: 50 };

  it('puts front up and positive bearings to the left', () => {
    const front = bearingPoint(0, 40, c);
    expect(front.x).toBeCloseTo(50);
    expect(front.y).toBeCloseTo(10);
    const left = bearingPoint(90, 40, c);
    expect(left.x).toBeCloseTo(10);
    expect(left.y).toBeCloseTo(50);
  });

  it('reads a point back into a bearing', () => {
    expect(pointBearing({ x: 50, y: 10 }, c)).toBe(0);
    expect(pointBearing({ x: 10, y: 50 }, c)).toBe(90);
    expect(pointBearing({ x: 90, y: 50 }, c)).toBe(-90);
    expect(pointBearing({ x: 50, y: 90 }, c)).toBe(180);
    for (const b of [-135, -30, 45, 120]) expect(pointBearing(bearingPoint(b, 30, c), c)).toBe(b);
  });

  it('names a bearing', () => {
    expect(bearingWords(31.2)).toBe('31° left');
    expect(bearingWords(-12.6)).toBe('13° right');
    expect(bearingWords(0.2)).toBe('straight ahead');
    expect(bearingWords(null)).toBe('no reading yet');
  });
});

describe('status lines', () => {
  it('says what tracking does', () => {
    expect(trackingLine(null)).toBe('Waiting for the tracker…');
    expect(trackingLine(tracking)).toBe('Looking for a face');
    expect(trackingLine({ ...tracking, detected: true })).toBe('Face locked');
    expect(trackingLine({ ...tracking, paused: true, holds: [{ name: 'look', remaining: 2 }] })).toBe('Paused by look');
    expect(trackingLine({ ...tracking, enabled: false })).toBe('Off');
    expect(trackingLine({ ...tracking, error: 'daemon down' })).toBe('Tracker problem: daemon down');
  });

  it('says why the robot is not turning toward the speaker', () => {
    expect(doaLine(doa)).toBe('Not turning: listening 4/6');
    expect(doaLine({ ...doa, why: null })).toBe('Just turned toward the speaker');
    expect(doaLine({ ...doa, enabled: false })).toBe('Off');
    expect(doaLine(null)).toBe('Waiting for the listener…');
  });
});
