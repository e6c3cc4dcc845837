import { describe, expect, it } from 'vitest';
import { formatLoad, formatLoopHz, formatMemory, formatUptime, serviceRows, versionFacts } from './system-format.ts';

describe('formatUptime', () => {
  it.each([
    [0, '0 s'],
    [59.9, '59 s'],
    [61, '1 min'],
    [3600 + 12 * 60, '1 h 12 min'],
    [2 * 86_400 + 4 * 3600, '2 d 4 h'],
    [-1, '—'],
    [null, '—'],
  ])('%s s → %s', (seconds, text) => {
    expect(formatUptime(seconds)).toBe(text);
  });
});

describe('formatMemory and formatLoad', () => {
  it('round to what matters', () => {
    expect(formatMemory(181.6)).toBe('182 MiB');
    expect(formatMemory(undefined)).toBe('—');
    expect(formatLoad(0.4249)).toBe('0.42');
    expect(formatLoad(Number.NaN)).toBe('—');
  });
});

describe('serviceRows', () => {
  it('sorts by name and gives each state a tone', () => {
    expect(
      serviceRows({
        tracking: { state: 'paused', detail: 'no camera' },
        camera: { state: 'running' },
        speech: { state: 'off' },
        doa: { state: 'stopped' },
      }),
    ).toEqual([
      { name: 'camera', state: 'running', detail: null, tone: 'ok' },
      { name: 'doa', state: 'stopped', detail: null, tone: 'bad' },
      { name: 'speech', state: 'off', detail: null, tone: 'idle' },
      { name: 'tracking', state: 'paused', detail: 'no camera', tone: 'warn' },
    ]);
  });

  it('is empty without services', () => {
    expect(serviceRows(undefined)).toEqual([]);
  });
});

describe('daemon version awareness and loop rate', () => {
  const check = {
    tested: { min: '1.10.0', max: '1.13.0' },
    in_range: false,
    warning: 'daemon version 1.14.0 is outside the tested range 1.10.0 to 1.13.0',
    capabilities_known: true,
    missing: ['POST /api/move/goto (look)', 'GET /api/state/doa (turn toward the speaker)'],
  };

  it('shows the tested range, the warning and what the daemon lacks', () => {
    expect(versionFacts(check)).toEqual([
      { label: 'Tested daemons', value: '1.10.0 – 1.13.0' },
      { label: 'Version warning', value: check.warning },
      { label: 'Daemon lacks', value: 'POST /api/move/goto (look); GET /api/state/doa (turn toward the speaker)' },
    ]);
    expect(versionFacts({ ...check, in_range: true, warning: null, missing: [] })).toEqual([
      { label: 'Tested daemons', value: '1.10.0 – 1.13.0' },
    ]);
    expect(versionFacts(undefined)).toEqual([]);
  });

  it('says when the daemon reports no control-loop rate', () => {
    expect(formatLoopHz(null)).toBe('not reported');
    expect(formatLoopHz(49.87)).toBe('49.9 Hz');
  });
});
