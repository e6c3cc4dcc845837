/**
 * The desktop server against bytes nobody here wrote: the requests that once stopped the process, a
 * seeded raw-socket fuzzer over HTTP and HTTPS (FUZZ_SEED replays it), a crowd of half-sent
 * requests, and a client that hangs up mid-body. The server runs in this process, so anything
 * thrown out of a handler would fail the run as an unhandled error as well as in these checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startCockpit, type Cockpit } from '../index.ts';
import { SERVER_OPTIONS } from '../http/listeners.ts';
import { TEST_TOKEN } from '../testing/cockpit-harness.ts';
import { onFreePort } from '../testing/free-port.ts';
import { crashers } from '../testing/hostile-requests.ts';
import { exchange, firstResponse, sourceAddress, statusOf, type RawTarget } from '../testing/raw-client.ts';
import { capturingLog, FUZZ_SEED, healthStatus, runRawFuzz } from '../testing/raw-fuzz-run.ts';

/** Long-running or endless routes are left to the JSON fuzzer (fuzz.test.ts): a case must end by itself. */
const SLOW_OR_ENDLESS = /\/(stream|say|reel|ask|chat)$/;
const CASES = Number(process.env['FUZZ_CASES'] ?? 5000);

let cockpit: Cockpit;
let dataDir: string;
let http: RawTarget;
let https: RawTarget;
const captured = capturingLog();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cockpit-hostile-'));
  cockpit = await onFreePort((httpsPort) => {
    const config = loadConfig({
      env: {
        ROBOT_HTTPS_PORT: String(httpsPort),
        ROBOT_TRACK_AUTOSTART: '0',
        ROBOT_THINKER_INTERVAL: '3600',
        ROBOT_RECORD_FPS: '0',
      },
      flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
    });
    return startCockpit({ config, log: captured.log, ownerToken: TEST_TOKEN });
  });
  http = { port: cockpit.port, tls: false };
  https = { port: Number(new URL(cockpit.httpsUrl as string).port), tls: true };
}, 60_000);
afterAll(async () => {
  // A socket the fuzz left half-open would hold this past the hook's bound.
  await cockpit.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const healthy = async (target: RawTarget) => (await healthStatus(target)) === 200;

describe.each([
  ['HTTP', () => http],
  ['HTTPS', () => https],
])('the requests that stopped the process, over %s', (_name, target) => {
  for (const { name, bytes } of crashers('/ws', '127.0.0.1')) {
    it(`answers ${name} with a JSON 400 and keeps serving`, async () => {
      const answer = await exchange(target(), [bytes], sourceAddress(7));
      expect(statusOf(answer.response)).toBe(400);
      const body = JSON.parse(firstResponse(answer.response).body) as { code: string; error: string };
      expect(body.code).toBe('BAD_REQUEST');
      expect(body.error).not.toBe('');
      expect(await healthy(target())).toBe(true);
      expect(captured.errors).toEqual([]);
    });
  }
});

it(`survives ${CASES} raw-socket cases over HTTP and HTTPS (seed ${FUZZ_SEED})`, async () => {
  const paths = cockpit.app.routes
    .filter((r) => r.method !== 'WS' && !SLOW_OR_ENDLESS.test(r.path))
    .map((r) => r.path.replace(':cid', 'abc').replace('{*path}', 'assets/x.js'));
  const report = await runRawFuzz({
    targets: [http, http, http, https],
    context: { paths, socketPaths: ['/ws'], token: TEST_TOKEN, host: `127.0.0.1:${http.port}` },
    cases: CASES,
    health: http,
    errors: captured.errors,
  });
  expect(report.problems).toEqual([]);
  expect(report.sent).toBe(CASES);
  expect(report.healthChecks).toBe(Math.ceil(CASES / 100));
  // The cases reach past the parsers: upgrades are accepted, routes answer, refusals happen.
  expect(report.statuses.get(101) ?? 0).toBeGreaterThan(0);
  expect(report.statuses.get(200) ?? 0).toBeGreaterThan(0);
  expect(report.statuses.get(400) ?? 0).toBeGreaterThan(0);
  expect(await healthy(https)).toBe(true);
}, 300_000);

it('keeps answering others while 150 clients trickle half-sent requests, and cuts them by its timeouts', async () => {
  const slow = await Promise.all(
    Array.from(
      { length: 150 },
      (_, i) =>
        new Promise<ReturnType<typeof connect>>((resolve) => {
          const socket = connect(
            { host: '127.0.0.1', port: http.port, localAddress: sourceAddress(10_000 + i) },
            () => {
              socket.write(
                i % 2
                  ? `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `
                  : `POST /api/control/look HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"yaw"`,
              );
              resolve(socket);
            },
          );
          socket.on('error', () => undefined);
        }),
    ),
  );
  try {
    // Every half-sent request is still open, and a whole one is answered beside them.
    expect(slow.every((s) => !s.destroyed)).toBe(true);
    expect(await healthy(http)).toBe(true);
    const state = await fetch(`${cockpit.url}/api/state`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    expect(state.status).toBe(200);
    // The bounds that end them are set on every listener (Node enforces them).
    expect(SERVER_OPTIONS.headersTimeout).toBeLessThanOrEqual(10_000);
    expect(SERVER_OPTIONS.requestTimeout).toBeLessThanOrEqual(60_000);
  } finally {
    for (const s of slow) s.destroy();
  }
});

it('logs a client that hangs up mid-body at debug, never as a failure', async () => {
  const socket = connect({ host: '127.0.0.1', port: http.port, localAddress: sourceAddress(20_000) });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  // `Expect: 100-continue` makes the server say when the request has reached the cockpit.
  const dispatched = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.write(
    `POST /api/control/look HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nAuthorization: Bearer ${TEST_TOKEN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n`,
  );
  await dispatched;
  socket.write('{"yaw": 1');
  socket.destroy();
  await expect
    .poll(() => captured.recent.some((r) => r.msg === 'client hung up mid-request' && r.level === 'debug'), {
      timeout: 10_000,
    })
    .toBe(true);
  expect(captured.errors).toEqual([]);
  expect(await healthy(http)).toBe(true);
});
