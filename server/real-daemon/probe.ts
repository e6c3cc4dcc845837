/**
 * Sends the probe cases and the WebSocket checks to one daemon and keeps what came back: status,
 * JSON or text, the body's shape (keys, types, nullability) and, for errors, the body itself.
 * The same probe runs against the real daemon and the simulator (differential test), and its
 * result from the real daemon is the recorded fixture (`npm run record-fixtures`).
 */
import { request } from 'undici';
import WebSocket from 'ws';
import { holdsEventually } from '../testing/eventually.ts';
import { PROBE_CASES, type ProbeEnv } from './probe-cases.ts';
import { shapeOf } from './shape.ts';

export interface ProbeAnswer {
  name: string;
  method: string;
  path: string;
  env?: ProbeEnv;
  status: number;
  kind: 'json' | 'text';
  shape: unknown;
  /** The whole body of an error answer (status ≥ 400): error bodies are compared exactly. */
  error?: unknown;
}

export interface Probe {
  version: string;
  answers: ProbeAnswer[];
  /** Every `METHOD path` the daemon's /openapi.json lists (empty when it has none). */
  routes: string[];
  ws: {
    /** Shape of the first /api/state/ws/full frame (frequency 10, default flags). */
    stateFrame: unknown;
    /** /api/move/ws/updates during a goto left to finish, then one stopped by its uuid. */
    gotoEvents: string[];
    stoppedEvents: string[];
    eventShape: unknown;
    /** HTTP status refusing an upgrade on a path that is not a socket. */
    unknownSocket: number | null;
    /** HTTP status refusing a socket handshake from a foreign Origin (the local-network guard). */
    crossOriginSocket: number | null;
    /** A target sent on /api/move/ws/set_target (the joystick's socket) reached the antennas. */
    setTargetApplied: boolean;
  };
}

export async function probeDaemon(baseUrl: string): Promise<Probe> {
  const answers: ProbeAnswer[] = [];
  for (const c of PROBE_CASES) {
    // undici's request, not fetch: fetch will not send a chosen Host header.
    const res = await request(`${baseUrl}${c.path}`, {
      method: c.method,
      headers: { ...(c.body === undefined ? {} : { 'content-type': 'application/json' }), ...c.headers },
      ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
      headersTimeout: 20_000,
      bodyTimeout: 20_000,
    });
    const text = await res.body.text();
    const isJson = String(res.headers['content-type'] ?? '').includes('json');
    const body: unknown = isJson ? JSON.parse(text) : text;
    answers.push({
      name: c.name,
      method: c.method,
      path: c.path,
      ...(c.env ? { env: c.env } : {}),
      status: res.statusCode,
      kind: isJson ? 'json' : 'text',
      shape: shapeOf(body),
      ...(res.statusCode >= 400 ? { error: body } : {}),
    });
  }
  await stopEverything(baseUrl);
  const status = (await (await fetch(`${baseUrl}/api/daemon/status`)).json()) as { version: string };
  return { version: status.version, answers, routes: await routesOf(baseUrl), ws: await probeSockets(baseUrl) };
}

async function routesOf(baseUrl: string): Promise<string[]> {
  const res = await fetch(`${baseUrl}/openapi.json`);
  if (!res.ok) return [];
  const paths = ((await res.json()) as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  return Object.entries(paths)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

async function stopEverything(baseUrl: string): Promise<void> {
  const running = (await (await fetch(`${baseUrl}/api/move/running`)).json()) as { uuid: string }[];
  for (const { uuid } of running) {
    await post(baseUrl, '/api/move/stop', { uuid });
  }
}

async function post(baseUrl: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const text = await res.text();
  return (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function firstMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    ws.once('message', (d) => resolve(JSON.parse(d.toString())));
    ws.once('close', () => reject(new Error('closed before a message')));
  });
}

/** Waits (bounded) until `events` holds a final event for `uuid`; the answers say if none came. */
async function finalFor(events: { type: string; uuid: string }[], uuid: string): Promise<void> {
  const final = new Set(['move_completed', 'move_cancelled', 'move_failed']);
  await holdsEventually(() => events.some((e) => e.uuid === uuid && final.has(e.type)), { timeoutMs: 10_000 });
}

async function probeSockets(baseUrl: string): Promise<Probe['ws']> {
  const wsBase = baseUrl.replace(/^http/, 'ws');
  const state = await open(`${wsBase}/api/state/ws/full?frequency=10`);
  const stateFrame = shapeOf(await firstMessage(state));
  state.close();
  const updates = await open(`${wsBase}/api/move/ws/updates`);
  const events: { type: string; uuid: string; details: string }[] = [];
  updates.on('message', (d) => events.push(JSON.parse(d.toString()) as { type: string; uuid: string; details: string }));
  const goto = (await post(baseUrl, '/api/move/goto', { antennas: [0.2, -0.2], duration: 0.3 })) as { uuid: string };
  await finalFor(events, goto.uuid);
  const long = (await post(baseUrl, '/api/move/goto', { antennas: [-0.2, 0.2], duration: 5 })) as { uuid: string };
  await holdsEventually(() => events.some((e) => e.uuid === long.uuid), { timeoutMs: 5000 });
  await post(baseUrl, '/api/move/stop', { uuid: long.uuid });
  await finalFor(events, long.uuid);
  updates.close();
  const unknownSocket = await upgradeStatus(`${wsBase}/api/no-such-socket`);
  const crossOriginSocket = await upgradeStatus(`${wsBase}/api/move/ws/updates`, { origin: 'http://evil.example' });
  const setTargetApplied = await probeSetTarget(baseUrl);
  return {
    setTargetApplied,
    stateFrame,
    gotoEvents: events.filter((e) => e.uuid === goto.uuid).map((e) => e.type),
    stoppedEvents: events.filter((e) => e.uuid === long.uuid).map((e) => e.type),
    eventShape: shapeOf(events[0] ?? null),
    unknownSocket,
    crossOriginSocket,
  };
}

/** Sends one target on the set_target socket and watches the antennas reach it (bounded). */
async function probeSetTarget(baseUrl: string): Promise<boolean> {
  const ws = await open(`${baseUrl.replace(/^http/, 'ws')}/api/move/ws/set_target`);
  try {
    ws.send(JSON.stringify({ target_antennas: [0.25, -0.25] }));
    return await holdsEventually(
      async () => {
        const antennas = (await (await fetch(`${baseUrl}/api/state/present_antenna_joint_positions`)).json()) as number[];
        return Math.abs((antennas[0] ?? 0) - 0.25) < 0.01 && Math.abs((antennas[1] ?? 0) + 0.25) < 0.01;
      },
      { timeoutMs: 5000, intervalMs: 50 },
    );
  } finally {
    ws.close();
  }
}

/** The HTTP status a socket handshake gets: 101 when it opens. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? null);
      ws.terminate();
    });
    ws.once('open', () => {
      resolve(101);
      ws.close();
    });
    ws.once('error', () => resolve(null));
  });
}
