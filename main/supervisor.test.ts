/**
 * The restart loop's schedule, on fake processes and a clock the test moves: a crash after a
 * lasting run is restarted in well under 2 s, a crash loop backs off, a start failure is not
 * retried, and stop() ends the loop (gracefully, then by force).
 */
import { describe, expect, it } from 'vitest';
import { createLog, type Log } from '../server/index.ts';
import { createSupervisor, restartDelay, type ChildEvents, type StartMode, type SupervisorTimers } from './supervisor.ts';

interface FakeChild {
  pid: number;
  events: ChildEvents<{ port: number }>;
  signals: string[];
  mode: StartMode;
}

function rig(policy = {}, spare = false) {
  let now = 0;
  const pending: { at: number; fn: () => void; handle: number }[] = [];
  let handles = 0;
  const timers: SupervisorTimers = {
    now: () => now,
    setTimeout(fn, ms) {
      handles += 1;
      pending.push({ at: now + ms, fn, handle: handles });
      return handles;
    },
    clearTimeout(handle) {
      const i = pending.findIndex((t) => t.handle === handle);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  const children: FakeChild[] = [];
  const lines: { level: string; msg: string; [k: string]: unknown }[] = [];
  const log: Log = createLog({ level: 'debug', sink: (r) => lines.push(r) });
  const supervisor = createSupervisor<{ port: number }>({
    log,
    timers,
    policy,
    spare,
    start(events, mode) {
      const child: FakeChild = { pid: 100 + children.length, events, signals: [], mode };
      children.push(child);
      return {
        pid: child.pid,
        go: () => child.signals.push('go'),
        stop: () => child.signals.push('SIGTERM'),
        kill: () => child.signals.push('SIGKILL'),
      };
    },
  });
  return {
    supervisor,
    children,
    lines,
    /** The delays currently scheduled. */
    scheduled: () => pending.map((t) => t.at - now),
    /** Moves the clock; runs what falls due. */
    advance(ms: number) {
      now += ms;
      for (const due of pending.filter((t) => t.at <= now)) {
        pending.splice(pending.indexOf(due), 1);
        due.fn();
      }
    },
    last: () => children[children.length - 1] as FakeChild,
  };
}

describe('restartDelay', () => {
  it('starts under 2 s and doubles up to the ceiling', () => {
    expect(restartDelay(0)).toBeLessThan(2000);
    expect(restartDelay(1)).toBe(restartDelay(0) * 2);
    expect(restartDelay(3)).toBe(restartDelay(0) * 8);
    expect(restartDelay(50)).toBe(30_000);
  });
});

describe('createSupervisor', () => {
  it('restarts a killed server in under 2 s, logging the restart', async () => {
    const r = rig();
    const started = r.supervisor.start();
    r.last().events.ready({ port: 1 });
    await expect(started).resolves.toEqual({ port: 1 });
    r.advance(60_000);
    r.last().events.exit(null, 'SIGKILL');
    const state = r.supervisor.state();
    expect(state).toMatchObject({ kind: 'restarting', restarts: 1, exit: { pid: 100, signal: 'SIGKILL' } });
    expect(r.scheduled()).toHaveLength(1);
    expect(r.scheduled()[0]).toBeLessThan(2000);
    expect(r.lines.at(-1)).toMatchObject({ level: 'warn', msg: 'the cockpit server exited; restarting it', pid: 100, signal: 'SIGKILL', restart: 1 });
    r.advance(r.scheduled()[0] as number);
    expect(r.children).toHaveLength(2);
    expect(r.supervisor.state().kind).toBe('starting');
    r.last().events.ready({ port: 2 });
    expect(r.supervisor.state()).toMatchObject({ kind: 'running', restarts: 1, pid: 101, info: { port: 2 } });
  });

  it('backs off while the server keeps dying young, and resets after a lasting run', async () => {
    const r = rig();
    const started = r.supervisor.start();
    r.last().events.ready({ port: 1 });
    await started;
    r.advance(20_000);
    const delays: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      r.last().events.exit(70, null);
      delays.push(r.scheduled()[0] as number);
      r.advance(delays[i] as number);
      r.last().events.ready({ port: 1 });
      r.advance(100);
    }
    expect(delays).toEqual([250, 500, 1000, 2000]);
    // One that dies during its start counts as dying young too.
    r.last().events.exit(70, null);
    r.advance(r.scheduled()[0] as number);
    r.last().events.exit(70, null);
    expect(r.scheduled()[0]).toBe(8000);
    r.advance(8000);
    r.last().events.ready({ port: 1 });
    r.advance(10_000);
    r.last().events.exit(70, null);
    expect(r.scheduled()[0]).toBe(250);
  });

  it('does not restart a server that fails its first start', async () => {
    const r = rig();
    const started = r.supervisor.start();
    r.last().events.exit(2, null);
    await expect(started).rejects.toThrow(/exited before it was ready \(exit code 2\)/);
    expect(r.supervisor.state()).toMatchObject({ kind: 'failed', exit: { code: 2 } });
    expect(r.scheduled()).toEqual([]);
  });

  it('stops gracefully without restarting, and kills a server that does not stop in time', async () => {
    const r = rig({ stopGraceMs: 5000 });
    const started = r.supervisor.start();
    r.last().events.ready({ port: 1 });
    await started;
    const stopped = r.supervisor.stop();
    expect(r.last().signals).toEqual(['SIGTERM']);
    r.advance(5000);
    expect(r.last().signals).toEqual(['SIGTERM', 'SIGKILL']);
    r.last().events.exit(null, 'SIGKILL');
    await stopped;
    expect(r.supervisor.state().kind).toBe('stopped');
    expect(r.children).toHaveLength(1);
    expect(r.scheduled()).toEqual([]);
  });

  it('cancels a scheduled restart when stopped in between', async () => {
    const r = rig();
    const started = r.supervisor.start();
    r.last().events.ready({ port: 1 });
    await started;
    r.last().events.exit(null, 'SIGSEGV');
    const seen: string[] = [];
    r.supervisor.onState((s) => seen.push(s.kind));
    await r.supervisor.stop();
    r.advance(60_000);
    expect(r.children).toHaveLength(1);
    expect(seen).toEqual(['stopped']);
  });

  it('with a spare: the loaded spare takes over after a crash, and a new spare follows', async () => {
    const r = rig({}, true);
    const started = r.supervisor.start();
    const [first] = r.children as [FakeChild];
    first.events.ready({ port: 1 });
    await started;
    expect(r.children.map((c) => c.mode)).toEqual(['serve', 'spare']);
    const spare = r.last();
    spare.events.standingBy();
    expect(spare.signals).toEqual([]);
    first.events.exit(null, 'SIGKILL');
    expect(r.scheduled()[0]).toBeLessThan(2000);
    r.advance(r.scheduled()[0] as number);
    expect(spare.signals).toEqual(['go']);
    expect(r.children).toHaveLength(2);
    expect(r.supervisor.state().kind).toBe('starting');
    spare.events.ready({ port: 1 });
    expect(r.supervisor.state()).toMatchObject({ kind: 'running', pid: spare.pid, restarts: 1 });
    expect(r.children.map((c) => c.mode)).toEqual(['serve', 'spare', 'spare']);
  });

  it('with a spare that died: starts a fresh server, and stop() ends the spare too', async () => {
    const r = rig({}, true);
    const started = r.supervisor.start();
    const [first] = r.children as [FakeChild];
    first.events.ready({ port: 1 });
    await started;
    r.last().events.exit(1, null);
    expect(r.lines.at(-1)).toMatchObject({ level: 'warn', msg: 'the spare cockpit server process exited' });
    expect(r.supervisor.state().kind).toBe('running');
    first.events.exit(70, null);
    r.advance(r.scheduled()[0] as number);
    expect(r.children.map((c) => c.mode)).toEqual(['serve', 'spare', 'serve']);
    r.last().events.ready({ port: 1 });
    const spare = r.last();
    expect(spare.mode).toBe('spare');
    const stopped = r.supervisor.stop();
    expect(spare.signals).toEqual(['SIGTERM']);
    r.children[2]?.events.exit(0, null);
    await stopped;
    spare.events.exit(0, null);
    expect(r.supervisor.state().kind).toBe('stopped');
  });

  it('does not wait for a spare that is still loading', async () => {
    const r = rig({}, true);
    const started = r.supervisor.start();
    const [first] = r.children as [FakeChild];
    first.events.ready({ port: 1 });
    await started;
    const loading = r.last();
    first.events.exit(70, null);
    r.advance(r.scheduled()[0] as number);
    expect(loading.signals).toEqual(['SIGTERM']);
    expect(r.last().mode).toBe('serve');
    loading.events.exit(null, 'SIGTERM');
    expect(r.supervisor.state().kind).toBe('starting');
  });
});
