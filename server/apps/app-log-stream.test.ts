/**
 * App output followed live (app-log-stream.ts): a fake journalctl the test feeds line by line
 * (an injected spawner), a log stream served by a local WebSocket server as the Wireless daemon
 * serves it, and the plain reasons when neither can be read. Time is a manual clock.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppLogLine } from '../contract/apps.ts';
import { createLog, type LogRecord } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { createAppLogStream, type AppLogStreamDeps } from './app-log-stream.ts';
import { MAX_APP_LINE_CHARS } from './journal-lines.ts';
import type { FollowProcess } from './log-followers.ts';

const RUNNER = 'reachy_mini.apps.manager.runner';

/** A journalctl the test writes to: its JSON lines, its exit. */
function fakeJournalctl() {
  const runs: { args: string[]; stdout: PassThrough; killed: boolean; exit(code: number): void }[] = [];
  const spawn = (_command: string, args: string[]): FollowProcess => {
    const events = new EventEmitter();
    const run = {
      args,
      stdout: new PassThrough(),
      killed: false,
      exit: (code: number) => events.emit('exit', code),
    };
    runs.push(run);
    return {
      stdout: run.stdout,
      stderr: new PassThrough(),
      kill: () => (run.killed = true),
      once: (event: string, listener: (...a: unknown[]) => void) => events.once(event, listener),
    } as FollowProcess;
  };
  let n = 0;
  const entry = (message: string) => {
    n += 1;
    return `${JSON.stringify({ __CURSOR: `s=1;i=${n}`, __REALTIME_TIMESTAMP: String(Date.UTC(2026, 10, 25, 16, 0, n) * 1000), MESSAGE: message, _SYSTEMD_UNIT: 'reachy-mini-daemon.service' })}\n`;
  };
  return { runs, spawn, entry };
}

function rig(overrides: Partial<AppLogStreamDeps> = {}) {
  const clock = createManualClock();
  const records: LogRecord[] = [];
  const journal = fakeJournalctl();
  const probes: string[][] = [];
  const stream = createAppLogStream({
    daemonUrl: 'http://127.0.0.1:8000',
    simulated: false,
    wireless: () => false,
    journal: (args) => {
      probes.push(args);
      return Promise.resolve({ ok: true, stdout: journal.entry('reachy_mini.daemon - INFO - up') });
    },
    spawn: journal.spawn,
    log: createLog({ sink: (r) => records.push(r) }),
    schedule: clock.schedule,
    lingerMs: 30_000,
    retryMs: 5000,
    ...overrides,
  });
  return { clock, records, journal, probes, stream };
}

let close: (() => void) | undefined;
afterEach(() => close?.());

describe('the app log follow', () => {
  it('follows the journal while an app runs: lines to watchers, to the log with the app name, then stops after the linger', async () => {
    const { clock, records, journal, stream } = rig();
    close = () => stream.close();
    const seen: AppLogLine[] = [];
    stream.appRunning('hello_wave');
    await eventually(() => journal.runs.length === 1);
    const run = journal.runs[0]!;
    expect(run.args).toEqual(['-u', 'reachy-mini-daemon', '-b', '-f', '-o', 'json', '--no-pager', '-n', '1000']);
    const unwatch = stream.watch('hello_wave', (line) => seen.push(line));
    run.stdout.write(journal.entry(`${RUNNER} - INFO - Starting app hello_wave`));
    run.stdout.write(journal.entry(`${RUNNER} - INFO - waving at 1 Hz`));
    run.stdout.write(journal.entry('reachy_mini.daemon.backend - INFO - control loop 50 Hz'));
    run.stdout.write(journal.entry(`${RUNNER} - ERROR - App hello_wave exited with code 1`));
    run.stdout.write(journal.entry('Last stderr output:'));
    run.stdout.write(journal.entry('ValueError: boom'));
    await eventually(() => seen.length === 5);
    expect(seen.map((l) => l.text)).toEqual([
      'Starting app hello_wave',
      'waving at 1 Hz',
      'App hello_wave exited with code 1',
      'Last stderr output:',
      'ValueError: boom',
    ]);
    expect(seen[1]?.time).toBe('2026-11-25T16:00:03.000Z');
    const output = records.filter((r) => r.msg === 'robot app output');
    expect(output.map((r) => [r.app, r.level, r.text])).toEqual([
      ['hello_wave', 'info', 'Starting app hello_wave'],
      ['hello_wave', 'info', 'waving at 1 Hz'],
      ['hello_wave', 'warn', 'App hello_wave exited with code 1'],
      ['hello_wave', 'warn', 'Last stderr output:'],
      ['hello_wave', 'warn', 'ValueError: boom'],
    ]);
    expect(stream.status('hello_wave')).toMatchObject({ available: true, source: 'journal' });
    expect(stream.recent()[0]).toMatchObject({ app: 'hello_wave', lines: seen });

    // The app ends and the viewer leaves: the follow outlives them by the linger, then stops.
    stream.appRunning(null);
    unwatch();
    clock.advance(29_999);
    expect(run.killed).toBe(false);
    clock.advance(1);
    expect(run.killed).toBe(true);

    // The next run resumes after the last cursor: no line is read twice.
    stream.appRunning('hello_wave');
    await eventually(() => journal.runs.length === 2);
    expect(journal.runs[1]?.args).toContain('--after-cursor=s=1;i=7');
  });

  it('keeps, sends and logs at most MAX_APP_LINE_CHARS of each line an app prints', async () => {
    const { journal, records, stream } = rig();
    close = () => stream.close();
    const seen: AppLogLine[] = [];
    stream.appRunning('hello_wave');
    await eventually(() => journal.runs.length === 1);
    const run = journal.runs[0]!;
    stream.watch('hello_wave', (line) => seen.push(line));
    // An app printing an encoded frame: journald keeps up to 48 KiB of one line.
    const long = 'A'.repeat(48 * 1024);
    run.stdout.write(journal.entry(`${RUNNER} - INFO - Starting app hello_wave`));
    run.stdout.write(journal.entry(`${RUNNER} - INFO - ${long}`));
    run.stdout.write(journal.entry(`${RUNNER} - INFO - short`));
    await eventually(() => seen.length === 3);
    const cut = MAX_APP_LINE_CHARS + '… [line cut]'.length;
    expect(seen.map((l) => l.text.length)).toEqual([23, cut, 5]);
    expect(seen[1]?.text.startsWith('AAAA')).toBe(true);
    const kept = stream.recent()[0];
    expect(kept?.available && kept.lines.map((l) => l.text.length)).toEqual([23, cut, 5]);
    const output = records.filter((r) => r.msg === 'robot app output');
    expect(output.map((r) => String(r.text).length)).toEqual([23, cut, 5]);
  });

  it('skips journal lines that are not entries it can read, and keeps following', async () => {
    const { clock, journal, stream } = rig();
    close = () => stream.close();
    const seen: AppLogLine[] = [];
    stream.appRunning('hello_wave');
    await eventually(() => journal.runs.length === 1);
    const run = journal.runs[0]!;
    const unwatch = stream.watch('hello_wave', (line) => seen.push(line));
    run.stdout.write(journal.entry(`${RUNNER} - INFO - Starting app hello_wave`));
    // A listener that throws on any of these is an uncaught exception: the cockpit would end.
    const odd = [
      'null',
      '[1, 2]',
      '"MESSAGE"',
      '{"MESSAGE": null, "__CURSOR": 5}',
      `{"MESSAGE": "${RUNNER} - INFO - far future", "__REALTIME_TIMESTAMP": "1e30"}`,
      `{"MESSAGE": "${RUNNER} - INFO - no time", "__REALTIME_TIMESTAMP": "99999999999999999999999"}`,
      '{"MESSAGE": [104, 105, 300, -1]}',
      '{not json',
    ];
    for (const line of odd) run.stdout.write(`${line}\n`);
    run.stdout.write(journal.entry(`${RUNNER} - INFO - still here`));
    // A cursor no journald writes is not kept to resume from (it goes back to journalctl as an argument).
    run.stdout.write(`{"MESSAGE": "${RUNNER} - INFO - long cursor", "__CURSOR": "${'c'.repeat(600)}"}\n`);
    await eventually(() => seen.at(-1)?.text === 'long cursor');
    expect(seen.map((l) => [l.time, l.text])).toEqual([
      ['2026-11-25T16:00:02.000Z', 'Starting app hello_wave'],
      [null, 'far future'],
      [null, 'no time'],
      ['2026-11-25T16:00:03.000Z', 'still here'],
      [null, 'long cursor'],
    ]);
    stream.appRunning(null);
    unwatch();
    clock.advance(30_000);
    expect(run.killed).toBe(true);
    stream.appRunning('hello_wave');
    await eventually(() => journal.runs.length === 2);
    expect(journal.runs[1]?.args).toContain('--after-cursor=s=1;i=3');
  });

  it('says why when journalctl ends, and follows again a retry later', async () => {
    const { clock, journal, stream } = rig();
    close = () => stream.close();
    stream.appRunning('hello_wave');
    await eventually(() => journal.runs.length === 1);
    journal.runs[0]!.exit(1);
    expect(stream.status('hello_wave')).toEqual({
      available: false,
      app: 'hello_wave',
      reason: 'App logs stopped: journalctl ended (exit code 1).',
    });
    clock.advance(5000);
    await eventually(() => journal.runs.length === 2);
  });

  it('says plainly when neither the journal nor a log stream is there', async () => {
    const noJournal = rig({ journal: () => Promise.resolve({ ok: true, stdout: '-- No entries --\n' }) });
    close = () => noJournal.stream.close();
    noJournal.stream.appRunning('hello_wave');
    await eventually(() => noJournal.stream.status('hello_wave')?.available === false);
    expect(noJournal.stream.status('hello_wave')).toMatchObject({
      reason:
        'App logs are not available: the journal has no entries for reachy-mini-daemon. The daemon does not run under systemd on this computer, and its version has no log stream.',
    });
    expect(noJournal.journal.runs).toHaveLength(0);
    noJournal.stream.close();
    const remote = rig({ daemonUrl: 'http://reachy-mini.local:8000' });
    close = () => remote.stream.close();
    remote.stream.appRunning('hello_wave');
    await eventually(() => remote.stream.status('hello_wave')?.available === false);
    expect(remote.stream.status('hello_wave')).toMatchObject({
      reason:
        'App logs are not available: the daemon runs on reachy-mini.local:8000, not on this computer, and only the Wireless daemon offers its log stream.',
    });
    expect(remote.probes).toHaveLength(0);
  });

  it("follows the Wireless daemon's log stream, skipping its keep-alives and the backlog it sends again", async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/logs/ws/daemon' });
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as { port: number }).port;
    const sockets: WebSocket[] = [];
    server.on('connection', (ws) => sockets.push(ws));
    const { clock, stream } = rig({
      daemonUrl: `http://127.0.0.1:${port}`,
      wireless: () => true,
      journal: () => Promise.resolve({ ok: false, error: 'No journal files were found.' }),
    });
    close = () => {
      stream.close();
      server.close();
    };
    const seen: string[] = [];
    stream.watch('hello_wave', (line, source) => seen.push(`${source}: ${line.text}`));
    await eventually(() => sockets.length === 1);
    const line = (s: number, text: string) =>
      `2026-11-25T17:00:0${s}+0100 reachy-mini reachy-mini-daemon[812]: ${RUNNER} - INFO - ${text}`;
    sockets[0]!.send(line(1, 'Starting app hello_wave'));
    sockets[0]!.send('');
    sockets[0]!.send(line(2, 'hello from the app'));
    await eventually(() => seen.length === 2);
    // The daemon drops the socket; the follow says so, and a retry later starts again with the
    // daemon's backlog, of which only the new line is taken.
    sockets[0]!.close();
    await eventually(() => stream.status('hello_wave')?.available === false);
    clock.advance(5000);
    await eventually(() => sockets.length === 2);
    sockets[1]!.send(line(1, 'Starting app hello_wave'));
    sockets[1]!.send(line(2, 'hello from the app'));
    sockets[1]!.send(line(3, 'and a new line'));
    await eventually(() => seen.length === 3);
    expect(seen).toEqual([
      'daemon-log-stream: Starting app hello_wave',
      'daemon-log-stream: hello from the app',
      'daemon-log-stream: and a new line',
    ]);
  });
});
