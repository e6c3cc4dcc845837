/**
 * The last-resort net: an uncaught exception or unhandled rejection is one redacted `fatal`
 * line and a non-zero exit, in a fake process and in a real one.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FATAL_EXIT_CODE, fatalRecord, installFatalNet } from './fatal-net.ts';

class FakeProcess extends EventEmitter {
  codes: number[] = [];
  exit(code: number) {
    this.codes.push(code);
  }
}

describe('fatalRecord', () => {
  it('names the scope and origin and redacts secrets in the message and stack', () => {
    const error = new Error('request ?token=abc123 failed with Bearer xyz');
    const record = fatalRecord('cockpit', 'uncaughtException', error, new Date(0));
    expect(record).toMatchObject({ time: '1970-01-01T00:00:00.000Z', level: 'fatal', scope: 'cockpit', origin: 'uncaughtException' });
    expect(record.error).toBe('Error: request ?token=[redacted] failed with Bearer [redacted]');
    expect(record.stack).toContain('token=[redacted]');
    expect(JSON.stringify(record)).not.toMatch(/abc123|xyz/);
  });

  it('takes rejections that are not errors', () => {
    expect(fatalRecord('cockpit', 'unhandledRejection', 42)).toMatchObject({ error: '42', msg: 'unhandled promise rejection; exiting' });
  });
});

describe('installFatalNet', () => {
  it('writes one fatal line and exits non-zero for each kind', () => {
    for (const origin of ['uncaughtException', 'unhandledRejection'] as const) {
      const proc = new FakeProcess();
      const lines: string[] = [];
      installFatalNet({ scope: 'cockpit', proc, write: (l) => lines.push(l) });
      proc.emit(origin, new Error('boom'));
      expect(proc.codes).toEqual([FATAL_EXIT_CODE]);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'fatal', scope: 'cockpit', origin, error: 'Error: boom' });
    }
  });

  it('ends a real process that throws outside any handler', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('main', 'testing', 'throws-after-net.ts')], {
      cwd: process.cwd(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(FATAL_EXIT_CODE);
    const line = JSON.parse(stderr.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'fatal', scope: 'cockpit.test', origin: 'uncaughtException' });
    expect(stderr).not.toContain('s3cret');
  }, 60_000);
});
