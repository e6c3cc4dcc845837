/**
 * Graceful shutdown: SIGTERM closes every socket with 1001, lets an in-flight request
 * finish, exits, and never releases the daemon's media.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSimDaemon, type SimDaemon } from '../server/sim/index.ts';
import { eventually } from '../server/testing/eventually.ts';
import { silentLog } from '../server/log.ts';

const TOKEN = 'shutdown-test-token-0123456789abcdef';
let sim: SimDaemon;
let dataDir: string;

beforeAll(async () => {
  sim = await startSimDaemon({ port: 0, log: silentLog });
  dataDir = mkdtempSync(join(tmpdir(), 'cockpit-shutdown-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('closes sockets with 1001, finishes in-flight work and exits on SIGTERM without releasing media', async () => {
  // Node itself with tsx's loader, not the tsx CLI: the CLI relays SIGTERM to its child and
  // SIGKILLs it unless the child confirms within 30 ms, which a loaded machine can miss.
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'main/serve.ts',
      '--daemon',
      sim.url,
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ],
    {
      env: {
        ...process.env,
        ROBOT_TOKEN: TOKEN,
        ROBOT_HTTPS_PORT: '0',
        ROBOT_CAMERA: 'off',
        ROBOT_TRACK_AUTOSTART: '0',
        ROBOT_LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const match = /desktop server on (\S+)/.exec(d.toString());
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
  });
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?token=${TOKEN}`);
  await new Promise((r) => ws.once('open', r));
  const closeCode = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  // A slow daemon keeps a control request in flight while the signal arrives.
  await fetch(`${sim.url}/sim/latency`, {
    method: 'POST',
    body: JSON.stringify({ ms: 800 }),
    headers: { 'content-type': 'application/json' },
  });
  const inFlight = fetch(`${url}/api/control/antennas`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ right: 15, left: -15 }),
  });
  // The cockpit has the request once it waits on the daemon for it.
  await eventually(() => sim.counters().heldByLatency.includes('POST /api/move/goto'), {
    what: 'the antennas goto held by the slow daemon',
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  expect(await closeCode).toBe(1001);
  expect((await inFlight).status).toBe(200);
  expect(await exited).toBe(0);
  await fetch(`${sim.url}/sim/latency`, {
    method: 'POST',
    body: JSON.stringify({ ms: 0 }),
    headers: { 'content-type': 'application/json' },
  });
  expect(sim.counters().mediaReleases).toBe(0);
}, 60_000);
