/**
 * A real daemon (child process, port 0) and the unchanged cockpit pointed at it
 * (`--daemon http://127.0.0.1:<port>`), for the contract suites. Daemon-side helpers read the
 * daemon's own state and listen to its move events, so a test checks what the robot software
 * did, not what the cockpit says it did.
 */
import WebSocket from 'ws';
import type { Health } from '../../contract/health.ts';
import { startHarness, TEST_TOKEN, until, type Harness } from '../../testing/cockpit-harness.ts';
import { startRealDaemon, type RealDaemon } from '../process.ts';
import type { Flavour, VenvPaths } from '../venv.ts';

export interface RealRig {
  daemon: RealDaemon;
  h: Harness;
  /** GET on the daemon itself; the parsed body and the status. */
  daemonGet<T = unknown>(path: string): Promise<{ status: number; body: T }>;
  daemonPost<T = unknown>(path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** The cockpit's control routes with the owner token. */
  control(path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** Bound on the Python daemon's start on a loaded 2-core machine (module imports dominate). */
export const DAEMON_START_MS = 90_000;

export async function startRealRig(paths: VenvPaths, flavour: Flavour = 'mockup'): Promise<RealRig> {
  const daemon = await startRealDaemon({ paths, flavour, readyTimeoutMs: DAEMON_START_MS });
  let h: Harness;
  try {
    // A generous control rate: the suite sends bursts a person would not.
    h = await startHarness({ ROBOT_RATE_LIMIT: '1000' }, { daemonUrl: daemon.url });
  } catch (err) {
    await daemon.close();
    throw err;
  }
  // Connected (state streaming, status answering) and the daemon's route list read.
  const ready = async () => {
    const health = (await (await h.get('/api/health')).json()) as Health;
    return health.daemon.presence === 'connected' && health.daemon.version_check.capabilities_known;
  };
  if (!(await until(ready, 20_000, 100))) {
    await h.close();
    await daemon.close();
    throw new Error('the cockpit never connected to the real daemon');
  }
  const parse = async (res: Response) => {
    const text = await res.text();
    try {
      return JSON.parse(text) as never;
    } catch {
      return text as never;
    }
  };
  return {
    daemon,
    h,
    async daemonGet(path) {
      const res = await fetch(`${daemon.url}${path}`);
      return { status: res.status, body: await parse(res) };
    },
    async daemonPost(path, body) {
      const res = await fetch(`${daemon.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await parse(res) };
    },
    async control(path, body) {
      const res = await h.authed(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      return { status: res.status, body: (await parse(res)) as Record<string, unknown> };
    },
    async close() {
      await h.close();
      await daemon.close();
    },
  };
}

/** The daemon's move events (`/api/move/ws/updates`), collected from the moment it opens. */
export async function moveEvents(daemonUrl: string): Promise<{ events: { type: string; uuid: string }[]; close(): void }> {
  const ws = new WebSocket(`${daemonUrl.replace(/^http/, 'ws')}/api/move/ws/updates`);
  const events: { type: string; uuid: string }[] = [];
  ws.on('message', (d) => events.push(JSON.parse(d.toString()) as { type: string; uuid: string }));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { events, close: () => ws.close() };
}

/** Frames of the cockpit's /ws as the owner sees them, collected from the moment it opens. */
export async function cockpitSocket(url: string): Promise<{ frames: Record<string, unknown>[]; close(): void }> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?token=${TEST_TOKEN}`);
  const frames: Record<string, unknown>[] = [];
  ws.on('message', (d, binary) => {
    if (!binary) frames.push(JSON.parse(d.toString()) as Record<string, unknown>);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { frames, close: () => ws.close() };
}

export const rad = (deg: number): number => (deg * Math.PI) / 180;
