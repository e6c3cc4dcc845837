/**
 * Test rig for motion and control: a simulated daemon on a free port, a real HTTP daemon
 * client, and a Control wired to recording `emit` and `holds` doubles. Tests talk to the
 * simulator for the truth (`/api/move/running`, counters) rather than to the code under test.
 */
import type { TimerClock } from '../../clock.ts';
import type { ServiceState } from '../../contract/state.ts';
import { HttpDaemonClient } from '../../daemon/daemon-client.ts';
import { silentLog } from '../../log.ts';
import { startSimDaemon, type SimDaemon } from '../../sim/index.ts';
import { eventually, testWait } from '../../testing/eventually.ts';
import { createControl, type Control, type ControlDeps } from '../control.ts';
import { createMoveLibraryCache, type MoveLibraryCache } from '../move-library.ts';
import type { Receipt } from '../receipts.ts';
import type { Holds, StopHold } from '../../holds.ts';

export interface HoldCall {
  /** `latched`/`unlatched`: the stop's pause of tracking (StopHold), named `stop`. */
  op: 'take' | 'release' | 'latched' | 'unlatched';
  name: string;
  ttl?: number;
}

export function recordingHolds(): Holds & StopHold & { calls: HoldCall[]; live(): string[] } {
  const calls: HoldCall[] = [];
  const live = new Set<string>();
  return {
    calls,
    take(name, ttl) {
      calls.push({ op: 'take', name, ttl });
      live.add(name);
    },
    release(name) {
      calls.push({ op: 'release', name });
      live.delete(name);
    },
    stopLatched(on) {
      calls.push({ op: on ? 'latched' : 'unlatched', name: 'stop' });
      if (on) live.add('stop');
      else live.delete('stop');
    },
    live: () => [...live],
  };
}

export interface Rig {
  sim: SimDaemon;
  daemon: HttpDaemonClient;
  moves: MoveLibraryCache;
  services: Map<string, ServiceState>;
  control: Control;
  events: Receipt[];
  holds: ReturnType<typeof recordingHolds>;
  /** The simulator's own list of running moves, read directly. */
  running(): Promise<string[]>;
  simCall(path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** `simClock`: the simulator's time (server/sim/index.ts); a manual one holds every move where it is. */
export async function startRig(overrides: Partial<ControlDeps> = {}, simClock?: TimerClock): Promise<Rig> {
  const sim = await startSimDaemon(simClock ? { clock: simClock } : {});
  const daemon = new HttpDaemonClient({ baseUrl: sim.url });
  const moves = createMoveLibraryCache(daemon);
  const services = new Map<string, ServiceState>();
  const events: Receipt[] = [];
  const holds = recordingHolds();
  const control = createControl({
    robot: { daemon, moves, services },
    emit: (e) => events.push(e),
    holds,
    log: silentLog,
    ...overrides,
  });
  control.start();
  const simCall = async (path: string, body?: unknown): Promise<unknown> => {
    const init: RequestInit =
      body === undefined
        ? {}
        : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const res = await fetch(`${sim.url}${path}`, init);
    const text = await res.text();
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return {
    sim,
    daemon,
    moves,
    services,
    control,
    events,
    holds,
    running: async () => ((await simCall('/api/move/running')) as { uuid: string }[]).map((m) => m.uuid),
    simCall,
    async close() {
      control.close();
      await daemon.close();
      await sim.close();
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a truthy value (server/testing/eventually.ts). */
export function until<T>(check: () => Promise<T> | T, timeoutMs = 10_000, everyMs = 25): Promise<T> {
  return eventually(check, { timeoutMs: testWait(timeoutMs), intervalMs: everyMs });
}
