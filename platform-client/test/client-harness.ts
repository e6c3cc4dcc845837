/**
 * Test harness: a platform emulator and a platform client on one manual clock, with a scripted
 * agent runner, a notification recorder and a fetch that notes every attempt (including the
 * ones an outage cuts), so cadence tests read request times instead of sleeping.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlatformNotice } from '../../server/contract/index.ts';
import type { FleetTurn, FleetTurnResult } from '../envelopes.ts';
import { createPlatformClient, type PlatformClient, type PlatformClientDeps } from '../platform-client.ts';
import { createFileSecretStore } from '../secret-store.ts';
import type { PlatformLog } from '../types.ts';
import { createManualScheduler, type ManualScheduler } from './manual-scheduler.ts';
import { startPlatformEmulator, type PlatformEmulator } from './platform-emulator.ts';

/** One fetch attempt as the client made it. */
export interface Attempt {
  method: string;
  path: string;
  at: number;
}

/** Everything a client test needs. */
export interface Harness {
  emu: PlatformEmulator;
  sched: ManualScheduler;
  client: PlatformClient;
  owner: { userId: string; session: string };
  device: { deviceId: string; token: string };
  dataDir: string;
  turns: FleetTurn[];
  notifications: PlatformNotice[];
  attempts: Attempt[];
  logs: Array<{ level: string; msg: string }>;
  /** Times (ms from the first) of attempts matching method and path. */
  times(method: string, path: string): number[];
  /** Calls a session route of the emulator as the owner. */
  owned(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** Options: the scripted runner and extra client deps. */
export interface HarnessOptions {
  runner?: (turn: FleetTurn) => Promise<FleetTurnResult>;
  deps?: Partial<PlatformClientDeps>;
  /** Enrol the client through the environment identity (default) or leave it unenrolled. */
  enrolled?: boolean;
}

function recordingLog(logs: Array<{ level: string; msg: string }>): PlatformLog {
  const at = (level: string) => (msg: string) => void logs.push({ level, msg });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Starts the emulator and a client enrolled as a fresh device of a fresh owner. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sched = createManualScheduler();
  const emu = await startPlatformEmulator({ now: sched.now, timers: sched });
  const owner = emu.addUser('owner');
  const device = emu.enrolDevice(owner.session, 'cockpit-robot');
  const dataDir = await mkdtemp(join(tmpdir(), 'pc-harness-'));
  const turns: FleetTurn[] = [];
  const notifications: PlatformNotice[] = [];
  const attempts: Attempt[] = [];
  const logs: Array<{ level: string; msg: string }> = [];
  const recordingFetch = (input: string, init?: RequestInit) => {
    attempts.push({ method: init?.method ?? 'GET', path: new URL(input).pathname, at: sched.now() });
    return fetch(input, init);
  };
  const client = createPlatformClient({
    secrets: createFileSecretStore({ dir: join(dataDir, 'secrets') }),
    dataDir,
    log: recordingLog(logs),
    envIdentity: options.enrolled === false ? null : { platformUrl: emu.url, ...device },
    capabilities: () => ['say', 'look', 'status'],
    lanUrl: () => 'http://192.168.1.50:8097',
    runFleetTurn: async (turn) => {
      turns.push(turn);
      return options.runner ? options.runner(turn) : { text: `done: ${turn.prompt}` };
    },
    notify: (n) => void notifications.push(n),
    scheduler: sched,
    fetch: recordingFetch,
    ...options.deps,
  });
  const start = attempts.length;
  return {
    emu,
    sched,
    client,
    owner,
    device,
    dataDir,
    turns,
    notifications,
    attempts,
    logs,
    times(method, path) {
      const hits = attempts.slice(start).filter((a) => a.method === method && a.path === path);
      return hits.map((a) => a.at - (hits[0]?.at ?? 0));
    },
    async owned(method, path, body) {
      const res = await fetch(`${emu.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${owner.session}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async close() {
      await client.disconnect();
      await emu.close();
    },
  };
}

/** Parsed reply payloads the emulator holds for a device's answers. */
export function repliesIn(
  emu: PlatformEmulator,
): Array<{ inReplyTo: string; payload: Record<string, unknown>; raw: string }> {
  return emu.ctx.relay.rows
    .filter((r) => r.in_reply_to !== null && !r.in_reply_to.startsWith('task_'))
    .map((r) => ({
      inReplyTo: r.in_reply_to as string,
      payload: JSON.parse(r.payload) as Record<string, unknown>,
      raw: r.payload,
    }));
}
