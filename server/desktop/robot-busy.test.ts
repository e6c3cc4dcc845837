import { describe, expect, it } from 'vitest';
import type { EventFrame } from '../contract/ws.ts';
import { busyReason, OPERATOR_IDLE_MS } from './robot-busy.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const event = (credential: EventFrame['credential'], agoMs: number): EventFrame =>
  ({ type: 'event', action: 'look', text: 'look', credential, time: new Date(NOW - agoMs).toISOString() }) as EventFrame;
const idle = { moveRunning: false, runningTurns: 0, speaking: false, events: [], now: NOW };

describe('busyReason', () => {
  it('is null for an idle robot, and names the first thing in use otherwise', () => {
    expect(busyReason(idle)).toBeNull();
    expect(busyReason({ ...idle, moveRunning: true, speaking: true })).toBe('a move is running');
    expect(busyReason({ ...idle, runningTurns: 2 })).toBe('an agent turn is running');
    expect(busyReason({ ...idle, speaking: true })).toBe('the robot is speaking');
  });

  it('counts a person for a minute after their last action; the cockpit’s own receipts never', () => {
    expect(busyReason({ ...idle, events: [event('token', 5_000)] })).toBe('an operator was active in the last minute');
    expect(busyReason({ ...idle, events: [event('token', OPERATOR_IDLE_MS + 1)] })).toBeNull();
    expect(busyReason({ ...idle, events: [event('system', 1_000)] })).toBeNull();
  });
});
