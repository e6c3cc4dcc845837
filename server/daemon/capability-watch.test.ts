import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { createLog, silentLog, type Log, type LogRecord } from '../log.ts';
import { watchCapabilities } from './capability-watch.ts';
import type { DaemonStatus } from './wire.ts';

type Listener = (status: DaemonStatus | undefined, error: string | null) => void;

function setup(answers: unknown[], log: Log = silentLog) {
  let listener: Listener = () => {};
  const reads: number[] = [];
  const daemon = {
    openApi: async () => {
      reads.push(reads.length);
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next;
    },
  };
  const feed = {
    onStatus: (l: Listener) => {
      listener = l;
      return () => {
        listener = () => {};
      };
    },
  };
  const watch = watchCapabilities({ daemon, feed, log });
  const status = (version: string) => listener({ version } as DaemonStatus, null);
  const lost = () => listener(undefined, 'daemon unreachable');
  return { watch, status, lost, reads };
}

const doc = (path: string) => ({ paths: { [path]: { get: {} } } });

describe('capability watch', () => {
  it('reads the route list once per connection and version', async () => {
    const s = setup([doc('/a'), doc('/b'), doc('/c')]);
    s.status('1.13.0');
    expect((await s.watch.ready()).has('GET', '/a')).toBe(true);
    s.status('1.13.0');
    s.status('1.13.0');
    expect(s.reads).toHaveLength(1);
    // An upgrade behind the same address: read again.
    s.status('1.14.0');
    const upgraded = await s.watch.ready();
    expect(upgraded.version).toBe('1.14.0');
    expect(upgraded.has('GET', '/b')).toBe(true);
    // Unreachable, then back with the same version (a restart): read again.
    s.lost();
    s.status('1.14.0');
    expect((await s.watch.ready()).has('GET', '/c')).toBe(true);
    expect(s.reads).toHaveLength(3);
    s.watch.stop();
  });

  it('a daemon without a route list is unknown, and not asked again every second', async () => {
    const s = setup([new AppError('DAEMON_ERROR', 'daemon refused openapi (404): Not Found')]);
    s.status('1.10.0');
    const caps = await s.watch.ready();
    expect(caps).toMatchObject({ known: false, version: '1.10.0' });
    s.status('1.10.0');
    s.status('1.10.0');
    expect(s.reads).toHaveLength(1);
  });

  it('warns once per connection when the daemon is outside the tested range, and keeps working', async () => {
    const records: LogRecord[] = [];
    const s = setup([doc('/a')], createLog({ sink: (r) => records.push(r) }));
    s.status('9.0.0');
    const caps = await s.watch.ready();
    expect(caps.has('GET', '/a')).toBe(true);
    s.status('9.0.0');
    const warnings = records.filter((r) => r.level === 'warn').map((r) => r.msg);
    expect(warnings).toEqual([expect.stringMatching(/9\.0\.0 is outside the tested range/)]);
  });
});
