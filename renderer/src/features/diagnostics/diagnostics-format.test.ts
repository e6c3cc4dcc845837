import { describe, expect, it } from 'vitest';
import { readLogEntry, readLogs } from './diagnostics-api.ts';
import { bundleFileName, clockTime, fieldLines, logSummary, newestFirst } from './diagnostics-format.ts';

const at = (h: number, m: number, s: number) => new Date(2026, 0, 2, h, m, s).toISOString();

describe('reading log records', () => {
  it('keeps the four fixed fields apart from the rest and drops records without them', () => {
    const raw = {
      records: [
        {
          time: at(9, 1, 2),
          level: 'warn',
          scope: 'cockpit.http',
          msg: 'request failed',
          code: 'TIMEOUT',
          path: '/api/x',
        },
        { time: at(9, 1, 3), level: 'loud', scope: 'x', msg: 'bad level' },
        { level: 'info', scope: 'x', msg: 'no time' },
        'not a record',
      ],
    };
    expect(readLogs(raw)).toEqual([
      {
        time: at(9, 1, 2),
        level: 'warn',
        scope: 'cockpit.http',
        msg: 'request failed',
        fields: { code: 'TIMEOUT', path: '/api/x' },
      },
    ]);
    expect(readLogs({ records: 'nope' })).toBeNull();
    expect(readLogs(null)).toBeNull();
    expect(readLogEntry({ time: 't', level: 'error', scope: 's', msg: 'm' })?.fields).toEqual({});
  });
});

describe('showing log records', () => {
  it('puts the newest first without changing the list it was given', () => {
    const records = [1, 2, 3].map((n) => readLogEntry({ time: at(9, 0, n), level: 'info', scope: 's', msg: `m${n}` }));
    const list = records.filter((r) => r !== null);
    expect(newestFirst(list).map((r) => r.msg)).toEqual(['m3', 'm2', 'm1']);
    expect(list.map((r) => r.msg)).toEqual(['m1', 'm2', 'm3']);
  });

  it('shows the local time to the second, and an unreadable time as it came', () => {
    expect(clockTime(at(7, 5, 9))).toBe('07:05:09');
    expect(clockTime('yesterday')).toBe('yesterday');
  });

  it('folds fields into key=value lines', () => {
    expect(fieldLines({ path: '/api/x', status: 503, nested: { a: [1] }, none: null, gone: undefined })).toEqual([
      'path=/api/x',
      'status=503',
      'nested={"a":[1]}',
      'none=null',
      'gone=undefined',
    ]);
  });

  it('names the bundle file with a stamp a file system accepts', () => {
    expect(bundleFileName(Date.parse('2026-03-04T05:06:07.890Z'))).toBe(
      'robot-cockpit-diagnostics-2026-03-04T05-06-07-890Z.json',
    );
  });

  it('summarises what is shown', () => {
    expect(logSummary(0, 'debug', null)).toBe('Loading the log…');
    expect(logSummary(1, 'debug', Date.parse(at(8, 0, 0)))).toBe('1 record, newest first · updated 08:00:00');
    expect(logSummary(12, 'warn', Date.parse(at(8, 0, 0)))).toBe(
      '12 records at warn or above, newest first · updated 08:00:00',
    );
  });
});
