import { describe, expect, it } from 'vitest';
import { demoOn, reelView, stopLatched, stopSummary } from './robot-services.ts';

describe('stopLatched', () => {
  it('is true only while the stop service runs', () => {
    expect(stopLatched({ stop: { state: 'running', detail: 'stopped by token' } })).toBe(true);
    expect(stopLatched({ stop: { state: 'off', detail: 'not engaged' } })).toBe(false);
    expect(stopLatched(undefined)).toBe(false);
  });
});

describe('demoOn', () => {
  it('reads the demo service', () => {
    expect(demoOn({ demo: { state: 'running' } })).toBe(true);
    expect(demoOn({ demo: { state: 'off' } })).toBe(false);
    expect(demoOn(null)).toBe(false);
  });
});

describe('reelView', () => {
  it('says the step while running', () => {
    const services = { reel: { state: 'running' as const, stepIndex: 2, steps: 11, step: 'nod' } };
    expect(reelView(services)).toEqual({ running: true, text: 'Step 3 of 11: nod' });
  });

  it('says how the last run ended, or that there was none', () => {
    const aborted = { state: 'off' as const, outcome: 'aborted', reason: 'stop' };
    const never = { state: 'off' as const, outcome: null };
    expect(reelView({ reel: aborted }).text).toBe('Last run aborted (stop)');
    expect(reelView({ reel: never }).text).toBe('Not run yet');
    expect(reelView({}).text).toBe('Unavailable');
  });
});

describe('stopSummary', () => {
  const clock = (iso: string) => iso.slice(11, 19);
  it('says who stopped the robot and when', () => {
    expect(stopSummary('stopped by passkey at 2026-11-21T06:01:02.000Z; resume from the dashboard', clock)).toBe(
      'Stopped with a passkey session at 06:01:02.',
    );
    expect(stopSummary('stopped by token at 2026-11-21T06:01:02.000Z; resume', clock)).toMatch(/owner token/);
  });

  it('falls back to a plain word', () => {
    expect(stopSummary(undefined, clock)).toBe('Stopped.');
  });
});
