/**
 * Starts a real cockpit with its in-process simulator on port 0 for integration tests, with a
 * fresh data folder, and tears everything down afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import type { TimerClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { startCockpit, type Cockpit } from '../index.ts';
import { holdsEventually, testWait } from './eventually.ts';
import { silentLog } from '../log.ts';

export const TEST_TOKEN = 'test-owner-token-0123456789abcdef';

export interface Harness {
  cockpit: Cockpit;
  url: string;
  simUrl: string;
  dataDir: string;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  authed(path: string, init?: RequestInit): Promise<Response>;
  sim(path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * `daemonUrl` points the unchanged cockpit at a daemon started by the test (the real daemon's
 * contract suite); without it the cockpit runs its in-process simulator. `clock` is the
 * cockpit's clock (CockpitOptions.clock), for tests that move the access model's time.
 */
export async function startHarness(
  env: Record<string, string> = {},
  options: { daemonUrl?: string; clock?: TimerClock } = {},
): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cockpit-test-'));
  const daemonFlags = options.daemonUrl ? { daemon: options.daemonUrl } : { sim: true };
  const config = loadConfig({
    // No autonomous gestures or tracking moves during tests unless a test asks for them, and no
    // recorded camera (it would keep the simulator's encoder and the decoder running throughout).
    env: { ROBOT_HTTPS_PORT: '0', ROBOT_TRACK_AUTOSTART: '0', ROBOT_THINKER_INTERVAL: '3600', ROBOT_RECORD_FPS: '0', ...env },
    flags: { ...daemonFlags, port: '0', host: '127.0.0.1', dataDir },
  });
  const cockpit = await startCockpit({
    config,
    log: silentLog,
    ownerToken: TEST_TOKEN,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const url = cockpit.url;
  return {
    cockpit,
    url,
    simUrl: cockpit.daemonUrl,
    dataDir,
    get: (path, headers = {}) => fetch(`${url}${path}`, { headers }),
    authed: (path, init = {}) =>
      fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${TEST_TOKEN}`, ...(init.headers ?? {}) } }),
    sim: (path, body) =>
      fetch(`${cockpit.daemonUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    async close() {
      await cockpit.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until the predicate holds or the time runs out; returns whether it held. */
export function until(predicate: () => Promise<boolean> | boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  return holdsEventually(predicate, { timeoutMs: testWait(timeoutMs), intervalMs: stepMs });
}

/** Opens a socket and resolves with it once open, or with its close code if it is closed first. */
export function openSocket(
  url: string,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<{ ws: WebSocket; code?: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, ...(localAddress ? { localAddress } : {}) });
    const frames: unknown[] = [];
    ws.on('message', (d) => frames.push(d));
    ws.once('close', (code) => resolve({ ws, code }));
    ws.once('error', reject);
    ws.once('open', () => setTimeout(() => (ws.readyState === WebSocket.OPEN ? resolve({ ws }) : undefined), 100));
  });
}

/**
 * A request from a non-loopback peer: the client binds 127.0.0.2, so the cockpit sees a peer
 * that is not 127.0.0.1 (the loopback rule wants exactly 127.0.0.1 or ::1).
 */
export function remoteRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    // Node frames no body for DELETE/OPTIONS by default: say how long it is, as a browser does.
    const headers = { ...init.headers, ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) };
    const options = { method: init.method ?? 'GET', headers, localAddress: init.localAddress ?? '127.0.0.2' };
    const req = httpRequest(url, options, (res) => {
      // Streams (MJPEG) never end: their status and headers are the answer.
      if (String(res.headers['content-type'] ?? '').startsWith('multipart/')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, body: '', headers: res.headers });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
