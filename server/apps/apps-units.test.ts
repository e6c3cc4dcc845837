/**
 * The shared status poll (uptime of a run, the crash seen once, read failures as a problem) and
 * the job tracker's fallback when the job socket cannot open and its line cap, with fakes the test
 * steps itself.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { AppJob } from '../contract/apps.ts';
import type { WireAppStatus, WireJobInfo } from '../daemon/apps-client.ts';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { createStatusPoll } from './app-status-poll.ts';
import { createJobTracker, GIVE_UP_MS, MAX_JOB_LINE_CHARS, MAX_JOB_LINES } from './job-tracker.ts';

/**
 * A daemon whose job sockets open and say nothing, as the real daemon's do for a job that never
 * ends or that ended before its socket opened: which are open now, and how many ever closed.
 */
async function silentJobSockets() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const open = new Set<string>();
  let closed = 0;
  wss.on('connection', (ws, req) => {
    const id = String(req.url?.split('/').at(-1));
    open.add(id);
    ws.on('close', () => {
      open.delete(id);
      closed += 1;
    });
  });
  const port = (wss.address() as AddressInfo).port;
  return {
    url: (id: string) => `ws://127.0.0.1:${port}/api/apps/ws/apps-manager/${id}`,
    open,
    closed: () => closed,
    close: () => new Promise((resolve) => wss.close(resolve)),
  };
}

const status = (name: string, state: WireAppStatus['state'], error: string | null = null): WireAppStatus => ({
  info: { name, source_kind: 'installed', description: '', url: null, extra: {} },
  state,
  error,
});

describe('the shared app status poll', () => {
  it('keeps a run’s start time, starts a new one after a crash or a start, and reports a crash once', async () => {
    let now = Date.parse('2026-11-25T10:00:00Z');
    let answer: WireAppStatus | null | Error = status('hello_wave', 'running');
    const crashes: string[] = [];
    let changes = 0;
    const poll = createStatusPoll({
      read: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
      changed: () => void (changes += 1),
      crashed: (name, error) => crashes.push(`${name}: ${error}`),
      now: () => now,
    });
    await poll.refresh();
    expect(poll.current()).toMatchObject({ name: 'hello_wave', state: 'running', since: '2026-11-25T10:00:00.000Z' });
    now += 60_000;
    await poll.refresh();
    expect(poll.current()?.since).toBe('2026-11-25T10:00:00.000Z');
    const before = changes;
    await poll.refresh();
    expect(changes).toBe(before);

    answer = status('hello_wave', 'error', 'Process exited with code 1\nboom\n');
    await poll.refresh();
    await poll.refresh();
    expect(crashes).toEqual(['hello_wave: Process exited with code 1\nboom\n']);
    expect(poll.current()?.errorLines).toEqual(['Process exited with code 1', 'boom']);

    now += 5000;
    answer = status('hello_wave', 'running');
    await poll.refresh();
    expect(poll.current()?.since).toBe('2026-11-25T10:01:05.000Z');

    answer = new Error('daemon unreachable (ECONNREFUSED)');
    await poll.refresh();
    expect(poll.problem()).toBe('daemon unreachable (ECONNREFUSED)');
    expect(poll.current()?.name).toBe('hello_wave');
    answer = null;
    await poll.refresh();
    expect(poll.problem()).toBeNull();
    expect(poll.current()).toBeNull();
  });

  it('reads again after an action when a read was already in flight', async () => {
    const reads: Array<(wire: WireAppStatus | null) => void> = [];
    const poll = createStatusPoll({
      read: () => new Promise((resolve) => reads.push(resolve)),
      changed: () => undefined,
    });
    const periodic = poll.refresh();
    // The action's read, asked while the periodic one (begun before the start) is in flight.
    const afterStart = poll.refresh(true);
    expect(poll.refresh()).toBe(periodic);
    reads[0]!(null);
    await periodic;
    await eventually(() => reads.length === 2, { what: 'the second read' });
    reads[1]!(status('hello_wave', 'starting'));
    expect(await afterStart).toMatchObject({ name: 'hello_wave', state: 'starting' });
  });
});

describe('the job tracker', () => {
  it('takes from the job socket only the statuses the daemon documents', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', (ws) => {
      for (const frame of [{ status: 5 }, { status: 'cancelled' }, { status: null }, { status: 'in_progress' }])
        ws.send(JSON.stringify(frame));
      ws.send('Installed');
      ws.send(JSON.stringify({ status: 'done' }));
    });
    const published: AppJob[] = [];
    const settled: AppJob[] = [];
    const tracker = createJobTracker({
      apps: {
        jobSocketUrl: () => `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/api/apps/ws/apps-manager/j2`,
        jobStatus: async () => ({ command: 'install', status: 'pending', logs: [] }),
      },
      publish: (job) => published.push(job),
      settled: (job) => settled.push(job),
      log: silentLog,
      pollMs: 60_000,
    });
    tracker.track('j2', 'install', 'hello_wave');
    await eventually(() => settled.length === 1, { what: 'settled.length to be 1' });
    expect(settled[0]).toMatchObject({ status: 'done', lines: ['Installed'] });
    // Before, 5, "cancelled" and null each became the job's status, shown on the dashboard.
    expect(published.map((j) => j.status).filter((st) => !['pending', 'in_progress', 'done'].includes(st))).toEqual([]);
    tracker.close();
    await new Promise((resolve) => wss.close(resolve));
  });

  it('polls the job status when the job socket cannot be opened, until the job ends', async () => {
    const infos: WireJobInfo[] = [
      { command: 'install', status: 'in_progress', logs: ['Downloading'] },
      {
        command: 'install',
        status: 'done',
        logs: ['Downloading', 'Installed', "Job 'install' completed successfully"],
      },
    ];
    const refusing = createServer((_req, res) => res.writeHead(404).end());
    refusing.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const port = (refusing.address() as AddressInfo).port;
    let reads = 0;
    const published: AppJob[] = [];
    const settled: AppJob[] = [];
    const tracker = createJobTracker({
      apps: {
        // A server that refuses the upgrade: the socket fails at once.
        jobSocketUrl: () => `ws://127.0.0.1:${port}/api/apps/ws/apps-manager/j1`,
        jobStatus: async () => infos[Math.min(reads++, infos.length - 1)] as WireJobInfo,
      },
      publish: (job) => published.push(job),
      settled: (job) => settled.push(job),
      log: silentLog,
      pollMs: 10,
    });
    tracker.track('j1', 'install', 'hello_wave');
    await eventually(() => settled.length === 1, { what: 'settled.length to be 1' });
    expect(settled[0]).toMatchObject({
      status: 'done',
      lines: ['Downloading', 'Installed', "Job 'install' completed successfully"],
    });
    expect(published.map((j) => j.status)).toEqual(['in_progress', 'in_progress', 'done']);
    expect(tracker.get('j1')?.status).toBe('done');
    tracker.close();
    await new Promise((resolve) => refusing.close(resolve));
  });

  it('closes the socket of a job pushed out of the kept jobs', async () => {
    // A daemon whose jobs never end: each socket stays open and says nothing.
    const sockets = await silentJobSockets();
    const open = sockets.open;
    const tracker = createJobTracker({
      apps: {
        jobSocketUrl: sockets.url,
        jobStatus: async () => ({ command: 'install', status: 'in_progress', logs: [] }),
      },
      publish: () => undefined,
      log: silentLog,
      pollMs: 60_000,
    });
    for (let n = 0; n < 20; n += 1) tracker.track(`j${n}`, 'install', 'hello_wave');
    await eventually(() => open.size === 20, { what: 'twenty job sockets open' });
    tracker.track('j20', 'install', 'hello_wave');
    // The first job is no longer kept: its socket closes, the newest opens.
    await eventually(() => !open.has('j0') && open.has('j20'), { what: "the pushed-out job's socket closed" });
    expect(tracker.recent().map((j) => j.id)).not.toContain('j0');
    expect(open.size).toBe(20);
    tracker.close();
    await sockets.close();
  });

  it('closes the socket of a job once it has ended', async () => {
    // The real daemon's socket of a job that ended before it opened: open, silent, never closed.
    const sockets = await silentJobSockets();
    const settled: AppJob[] = [];
    const tracker = createJobTracker({
      apps: {
        jobSocketUrl: sockets.url,
        jobStatus: async () => ({
          command: 'install',
          status: 'failed',
          logs: ["Job 'install' failed with error: offline"],
        }),
      },
      publish: () => undefined,
      settled: (job) => settled.push(job),
      log: silentLog,
      pollMs: 60_000,
    });
    tracker.track('j6', 'install', 'hello_wave');
    await eventually(() => settled.length === 1, { what: 'the job settled from its status read' });
    expect(settled[0]).toMatchObject({ status: 'failed', lines: ["Job 'install' failed with error: offline"] });
    await eventually(() => sockets.closed() === 1, { what: "the ended job's socket closed" });
    expect(sockets.open.size).toBe(0);
    tracker.close();
    await sockets.close();
  });

  it('gives up on a job that never ends after GIVE_UP_MS: its socket is closed', async () => {
    const sockets = await silentJobSockets();
    const clock = createManualClock();
    const tracker = createJobTracker({
      apps: {
        jobSocketUrl: sockets.url,
        jobStatus: async () => ({ command: 'install', status: 'in_progress', logs: [] }),
      },
      publish: () => undefined,
      log: silentLog,
      now: clock.now,
      schedule: clock.schedule,
      pollMs: 60_000,
    });
    tracker.track('j4', 'install', 'hello_wave');
    await eventually(() => sockets.open.has('j4'), { what: 'the job socket open' });
    clock.advance(GIVE_UP_MS);
    await eventually(() => sockets.closed() === 1, { what: 'the job socket closed' });
    expect(tracker.get('j4')?.status).toBe('in_progress');
    tracker.close();
    await sockets.close();
  });

  it('keeps at most MAX_JOB_LINE_CHARS of each line the job socket sends', async () => {
    const long = 'x'.repeat(256 * 1024);
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', (ws) => {
      ws.send(long);
      ws.send('short');
      ws.send(JSON.stringify({ status: 'done' }));
    });
    const settled: AppJob[] = [];
    const tracker = createJobTracker({
      apps: {
        jobSocketUrl: () => `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/api/apps/ws/apps-manager/j5`,
        jobStatus: async () => ({ command: 'install', status: 'in_progress', logs: [] }),
      },
      publish: () => undefined,
      settled: (job) => settled.push(job),
      log: silentLog,
      pollMs: 60_000,
    });
    tracker.track('j5', 'install', 'hello_wave');
    await eventually(() => settled.length === 1, { what: 'the job settled' });
    expect(settled[0]?.lines.map((line) => line.length)).toEqual([MAX_JOB_LINE_CHARS + '… [line cut]'.length, 5]);
    tracker.close();
    await new Promise((resolve) => wss.close(resolve));
  });

  it('keeps only the last lines of a job whose socket sends without end', async () => {
    const sent = MAX_JOB_LINES * 4;
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', (ws) => {
      for (let n = 1; n <= sent; n += 1) ws.send(`line ${n}`);
      ws.send(JSON.stringify({ status: 'failed' }));
    });
    let longest = 0;
    const settled: AppJob[] = [];
    const tracker = createJobTracker({
      apps: {
        jobSocketUrl: () => `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/api/apps/ws/apps-manager/j3`,
        jobStatus: async () => ({ command: 'install', status: 'in_progress', logs: ['line 1'] }),
      },
      publish: (job) => (longest = Math.max(longest, job.lines.length)),
      settled: (job) => settled.push(job),
      log: silentLog,
      pollMs: 60_000,
    });
    tracker.track('j3', 'install', 'hello_wave');
    await expect.poll(() => settled.length, { timeout: 60_000 }).toBe(1);
    expect(settled[0]?.status).toBe('failed');
    expect(settled[0]?.lines).toHaveLength(MAX_JOB_LINES);
    expect(settled[0]?.lines.at(-1)).toBe(`line ${sent}`);
    expect(settled[0]?.lines[0]).toBe(`line ${sent - MAX_JOB_LINES + 1}`);
    expect(longest).toBe(MAX_JOB_LINES);
    expect(tracker.get('j3')?.lines).toHaveLength(MAX_JOB_LINES);
    tracker.close();
    await new Promise((resolve) => wss.close(resolve));
  });
});
