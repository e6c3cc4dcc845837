/**
 * The desktop restart loop's wiring of the spare (ROBOT_SPARE, config.spare), on fake processes:
 * with it, a `standby` process is started beside the running server once that one is ready;
 * without it, nothing but the server runs, and a crash starts a fresh one.
 */
import { describe, expect, it } from 'vitest';
import { createLog } from '../../server/index.ts';
import { DEFAULT_POLICY, type SupervisorTimers } from '../supervisor.ts';
import { createCockpitRemote } from './cockpit-remote.ts';
import { superviseServer, type LinkedProcess } from './server-supervision.ts';

interface Fake {
  args: string[];
  message(message: unknown): void;
  exit(code: number | null, signal: string | null): void;
}

function rig(spare: boolean) {
  const started: Fake[] = [];
  const due: (() => void)[] = [];
  const clock = { now: 0 };
  // The restart delay runs when the test says so.
  const timers: SupervisorTimers = {
    now: () => clock.now,
    setTimeout: (fn) => due.push(fn),
    clearTimeout: () => undefined,
  };
  const spawn = (args: string[]): LinkedProcess => {
    const messages: ((m: unknown) => void)[] = [];
    const exits: ((code: number | null, signal: string | null) => void)[] = [];
    started.push({
      args,
      message: (m) => messages.forEach((l) => l(m)),
      exit: (code, signal) => exits.forEach((l) => l(code, signal)),
    });
    return {
      pid: 100 + started.length,
      send: () => undefined,
      onMessage: (l) => void messages.push(l),
      onExit: (l) => void exits.push(l),
      terminate: () => undefined,
      kill: () => undefined,
    };
  };
  const supervisor = superviseServer({
    spawn,
    args: ['--sim'],
    remote: createCockpitRemote(),
    log: createLog({ sink: () => {} }),
    spare,
    timers,
  });
  const ready = { kind: 'ready', port: 8097, host: '127.0.0.1', dataDir: '/d', simulated: true, daemonUrl: 'sim' };
  return { supervisor, started, due, ready, clock };
}

describe('superviseServer spare', () => {
  it('keeps a standby process beside the server when on', async () => {
    const { supervisor, started, ready } = rig(true);
    const first = supervisor.start();
    started[0]?.message(ready);
    await first;
    expect(started.map((s) => s.args)).toEqual([['--sim'], ['standby', '--sim', '--port', '8097']]);
  });

  it('starts only the server when off, and a fresh one after a crash', async () => {
    const { supervisor, started, due, ready, clock } = rig(false);
    const first = supervisor.start();
    started[0]?.message(ready);
    await first;
    expect(started.map((s) => s.args)).toEqual([['--sim']]);
    clock.now = DEFAULT_POLICY.stableMs;
    started[0]?.exit(null, 'SIGKILL');
    expect(supervisor.state()).toMatchObject({ kind: 'restarting', delayMs: DEFAULT_POLICY.firstDelayMs });
    due.shift()?.();
    expect(started.map((s) => s.args)).toEqual([['--sim'], ['--sim', '--port', '8097']]);
    expect(supervisor.spareStanding()).toBe(false);
  });
});
