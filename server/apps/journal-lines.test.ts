/** App logs from recorded journal output (short-iso, the daemon's `<logger> - <LEVEL> - <message>`). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { readAppLogs, sharedAppLogReads, type CommandResult } from './app-logs.ts';
import { appLines, MAX_APP_LINE_CHARS, parseJournal } from './journal-lines.ts';

const recorded = readFileSync(new URL('./testing/journal-short-iso.txt', import.meta.url), 'utf8');

describe('journal lines', () => {
  it('keeps only the runner lines of the asked app, continuation lines included', () => {
    const lines = appLines(parseJournal(recorded), 'clumsy_dancer');
    expect(lines.map((l) => l.text)).toEqual([
      'Starting app clumsy_dancer',
      'App clumsy_dancer is running',
      '/venvs/apps_venv/lib/python3.12/site-packages/numpy/_core/fromnumeric.py:3860: RuntimeWarning: Mean of empty slice.',
      'Traceback (most recent call last):',
      'RuntimeError: lost the beat: no audio frames for 2 s',
      'App clumsy_dancer exited with code 1. Last stderr output:',
      'Traceback (most recent call last):',
      'RuntimeError: lost the beat: no audio frames for 2 s',
    ]);
    expect(lines.map((l) => l.level)).toEqual(['info', 'info', 'warn', 'error', 'error', 'error', 'error', 'error']);
    expect(lines[0]?.time).toBe('2026-11-25T15:43:05.000Z');
  });

  it('keeps at most MAX_APP_LINE_CHARS of each line read from the backlog', () => {
    const runner = 'reachy-mini reachy-mini-daemon[812]: reachy_mini.apps.manager.runner - INFO -';
    const text = [
      `2026-11-25T16:47:25+0100 ${runner} Starting app hello_wave`,
      `2026-11-25T16:47:26+0100 ${runner} ${'B'.repeat(40_000)}`,
    ].join('\n');
    const lines = appLines(parseJournal(text), 'hello_wave');
    expect(lines.map((l) => l.text.length)).toEqual([23, MAX_APP_LINE_CHARS + '… [line cut]'.length]);
  });

  it('does not mix apps: the other app and the daemon lines stay out', () => {
    const texts = appLines(parseJournal(recorded), 'hello_wave').map((l) => l.text);
    expect(texts).toContain('hello_wave: connected to the robot');
    expect(texts).toContain('App stopped successfully');
    expect(texts.some((t) => t.includes('uvicorn') || t.includes('GET /api'))).toBe(false);
    expect(texts.some((t) => t.includes('clumsy_dancer'))).toBe(false);
    expect(appLines(parseJournal(recorded), 'never_ran')).toEqual([]);
  });
});

describe('where app logs come from', () => {
  const base = { simulated: false, wireless: () => false };

  it('reads the journal of the daemon unit when the daemon is on this host', async () => {
    const calls: string[][] = [];
    const logs = await readAppLogs(
      {
        ...base,
        daemonUrl: 'http://127.0.0.1:8000',
        journal: async (args) => (calls.push(args), { ok: true, stdout: recorded }),
      },
      'clumsy_dancer',
    );
    expect(calls[0]).toEqual(['-u', 'reachy-mini-daemon', '-b', '-n', '5000', '--no-pager', '-o', 'short-iso']);
    expect(logs).toMatchObject({ available: true, source: 'journal', app: 'clumsy_dancer' });
  });

  it('runs one journalctl for reads that overlap, whatever app each asks for', async () => {
    const held: Array<(result: CommandResult) => void> = [];
    const read = sharedAppLogReads({
      ...base,
      daemonUrl: 'http://127.0.0.1:8000',
      journal: () => new Promise((resolve) => held.push(resolve)),
    });
    const apps = ['clumsy_dancer', 'hello_wave', ...Array.from({ length: 20 }, (_, n) => `app_${n}`)];
    const reads = apps.map((app) => read(app));
    await eventually(() => held.length === 1, { what: 'the journal read' });
    held[0]!({ ok: true, stdout: recorded });
    const logs = await Promise.all(reads);
    expect(held).toHaveLength(1);
    expect(logs[0]).toMatchObject({ available: true, app: 'clumsy_dancer', source: 'journal' });
    expect(logs[1]).toMatchObject({ available: true, app: 'hello_wave' });
    expect(logs[1]?.available && logs[1].lines.map((l) => l.text)).toContain('hello_wave: connected to the robot');
    // A read after that one has ended reads the journal again.
    const later = read('hello_wave');
    await eventually(() => held.length === 2, { what: 'the next journal read' });
    held[1]!({ ok: true, stdout: recorded });
    expect(await later).toMatchObject({ available: true, app: 'hello_wave' });
  });

  it('says plainly when there is no journal and no log stream', async () => {
    const local = await readAppLogs(
      {
        ...base,
        daemonUrl: 'http://127.0.0.1:8000',
        journal: async () => ({ ok: false, error: 'No journal files were found.' }),
      },
      'hello_wave',
    );
    expect(local).toEqual({
      available: false,
      app: 'hello_wave',
      reason: expect.stringMatching(
        /^App logs are not available: journalctl failed: No journal files were found\./,
      ) as string,
    });
    const remote = await readAppLogs({ ...base, daemonUrl: 'http://reachy-mini.local:8000' }, 'hello_wave');
    expect(remote).toMatchObject({
      available: false,
      reason: expect.stringContaining('reachy-mini.local:8000') as string,
    });
  });

  it('uses the Wireless daemon log stream for a remote robot', async () => {
    const urls: string[] = [];
    const logs = await readAppLogs(
      {
        daemonUrl: 'http://reachy-mini.local:8000',
        simulated: false,
        wireless: () => true,
        logStream: async (url) => (urls.push(url), { ok: true, stdout: recorded }),
      },
      'hello_wave',
    );
    expect(urls).toEqual(['ws://reachy-mini.local:8000/logs/ws/daemon']);
    expect(logs).toMatchObject({ available: true, source: 'daemon-log-stream' });
  });
});
