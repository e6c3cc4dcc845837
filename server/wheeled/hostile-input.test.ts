/**
 * The wheeled server against bytes nobody here wrote, over plain HTTP and over its TLS listener: the
 * requests that once stopped the process, and the seeded raw-socket fuzzer (FUZZ_SEED replays
 * it) aimed at its routes and its chat, voice and state sockets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { crashers } from '../testing/hostile-requests.ts';
import { exchange, firstResponse, sourceAddress, statusOf, type RawTarget } from '../testing/raw-client.ts';
import { capturingLog, FUZZ_SEED, healthStatus, runRawFuzz } from '../testing/raw-fuzz-run.ts';
import { startWheeledServer, type WheeledServer } from './index.ts';
import { OWNER_TOKEN } from './testing/wheeled-harness.ts';

const SLOW_OR_ENDLESS = /\/(stream|say|chat|ask)$/;
const CASES = Number(process.env['FUZZ_CASES'] ?? 5000);

interface Running {
  server: WheeledServer;
  target: RawTarget;
  dataDir: string;
}

const captured = capturingLog();
let plain: Running;
let secure: Running;

async function start(tls: boolean): Promise<Running> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wheeled-hostile-'));
  const config = loadConfig({ env: { ROBOT_B_PORT: '0', ROBOT_B_TLS: tls ? '1' : '0' }, flags: { host: '127.0.0.1', dataDir } });
  const server = await startWheeledServer({ config, log: captured.log, ownerToken: OWNER_TOKEN });
  return { server, target: { port: server.port, tls }, dataDir };
}

beforeAll(async () => {
  plain = await start(false);
  secure = await start(true);
}, 60_000);
afterAll(async () => {
  for (const running of [plain, secure]) {
    // A socket the fuzz left half-open would hold this past the hook's bound.
    await running?.server.stop();
    if (running) await rm(running.dataDir, { recursive: true, force: true });
  }
}, 60_000);

const healthy = async (target: RawTarget) => (await healthStatus(target)) === 200;

describe.each([
  ['HTTP', () => plain],
  ['HTTPS', () => secure],
])('the requests that stopped the process, over %s', (_name, running) => {
  for (const { name, bytes } of crashers('/ws/chat', '127.0.0.1')) {
    it(`answers ${name} with a JSON 400 and keeps serving`, async () => {
      const answer = await exchange(running().target, [bytes], sourceAddress(7));
      expect(statusOf(answer.response)).toBe(400);
      expect(JSON.parse(firstResponse(answer.response).body)).toMatchObject({ code: 'BAD_REQUEST' });
      expect(await healthy(running().target)).toBe(true);
      expect(captured.errors).toEqual([]);
    });
  }
});

it(`survives ${CASES} raw-socket cases over HTTP and TLS (seed ${FUZZ_SEED})`, async () => {
  const paths = plain.server.app.routes
    .filter((r) => r.method !== 'WS' && !SLOW_OR_ENDLESS.test(r.path))
    .map((r) => r.path.replace(':cid', 'abc').replace(/:\w+/g, 'x').replace('{*path}', 'assets/x.js'));
  const report = await runRawFuzz({
    targets: [plain.target, plain.target, secure.target],
    context: { paths, socketPaths: ['/ws/chat', '/ws/voice', '/ws/state'], token: OWNER_TOKEN, host: `127.0.0.1:${plain.target.port}` },
    cases: CASES,
    health: plain.target,
    errors: captured.errors,
  });
  expect(report.problems).toEqual([]);
  expect(report.sent).toBe(CASES);
  expect(report.healthChecks).toBe(Math.ceil(CASES / 100));
  expect(report.statuses.get(101) ?? 0).toBeGreaterThan(0);
  expect(report.statuses.get(200) ?? 0).toBeGreaterThan(0);
  expect(await healthy(secure.target)).toBe(true);
}, 300_000);
