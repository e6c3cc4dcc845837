/**
 * Drives the raw-socket fuzzer against one running server: cases are generated in order from
 * the seed (so a replay sends the same bytes whatever the concurrency), sent a few at a time,
 * and after every 100 cases the server must still answer its health check. What counts as a
 * finding: a case the server never closed, a 5xx other than the daemon ones (502-504), a
 * refusal of an /api path without the JSON `{error, code}` body, a health check that fails, and any line the
 * server logs at error level (the error handler logs every unexpected exception there).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Log, LogRecord } from '../log.ts';
import { createLog } from '../log.ts';
import { seeded } from './fuzz.ts';
import { exchange, firstResponse, LOOPBACK_PEER, sourceAddress, statusOf, type RawTarget } from './raw-client.ts';
import { rawCase, type RawFuzzContext } from './raw-fuzz.ts';

export const FUZZ_SEED = Number(process.env['FUZZ_SEED'] ?? 20261125);

/** Cases in flight at once: enough to overlap, few enough that a busy machine keeps up. */
const CONCURRENCY = 12;

export interface RawFuzzReport {
  sent: number;
  healthChecks: number;
  problems: string[];
  statuses: Map<number | 'none', number>;
}

/** A log that keeps its error-level records, and the last debug ones, for the report (nothing on stderr). */
export function capturingLog(): { log: Log; errors: LogRecord[]; recent: LogRecord[] } {
  const errors: LogRecord[] = [];
  const recent: LogRecord[] = [];
  const sink = (r: LogRecord) => {
    if (r.level === 'error') errors.push(r);
    recent.push(r);
    if (recent.length > 500) recent.shift();
  };
  return { log: createLog({ level: 'debug', sink }), errors, recent };
}

export async function runRawFuzz(options: {
  targets: readonly RawTarget[];
  context: RawFuzzContext;
  cases: number;
  seed?: number;
  /** The address and protocol of the health check. */
  health: RawTarget;
  errors: readonly LogRecord[];
}): Promise<RawFuzzReport> {
  const seed = options.seed ?? FUZZ_SEED;
  const rng = seeded(seed);
  const report: RawFuzzReport = { sent: 0, healthChecks: 0, problems: [], statuses: new Map() };
  for (let batch = 0; batch * 100 < options.cases; batch += 1) {
    const cases = Array.from({ length: Math.min(100, options.cases - batch * 100) }, (_, i) => {
      const index = batch * 100 + i;
      return { index, fuzz: rawCase(rng, options.context), target: options.targets[index % options.targets.length] as RawTarget };
    });
    for (let at = 0; at < cases.length; at += CONCURRENCY) {
      await Promise.all(
        cases.slice(at, at + CONCURRENCY).map(async ({ index, fuzz, target }) => {
          const result = await exchange(target, fuzz.chunks, fuzz.local ? LOOPBACK_PEER : sourceAddress(index));
          report.sent += 1;
          const status = statusOf(result.response);
          report.statuses.set(status ?? 'none', (report.statuses.get(status ?? 'none') ?? 0) + 1);
          const where = `case ${index} (seed ${seed}, ${target.tls ? 'tls' : 'tcp'}): ${fuzz.label}`;
          if (result.hung) report.problems.push(`never closed: ${where}`);
          if (result.error) report.problems.push(`connection failed (${result.error}): ${where}`);
          if (status !== undefined) checkAnswer(status, result.response, { where, method: fuzz.method, api: fuzz.api }, report.problems);
        }),
      );
    }
    report.healthChecks += 1;
    const health = await healthStatus(options.health);
    if (health !== 200) report.problems.push(`health answered ${health} after case ${batch * 100 + cases.length - 1}`);
    if (options.errors.length > 0) {
      report.problems.push(...options.errors.map((e) => `error logged in batch ${batch}: ${e.msg} ${String(e['error'] ?? '').slice(0, 300)}`));
      break;
    }
    if (report.problems.length > 20) break;
  }
  return report;
}

function checkAnswer(status: number, response: Buffer, request: { where: string; method: string; api: boolean }, problems: string[]): void {
  const { where } = request;
  if (status >= 500 && status !== 502 && status !== 503 && status !== 504) problems.push(`${status}: ${where}`);
  if (status < 400 || status === 404) return;
  // HEAD answers carry no body; pages (the shell, the trust page) may answer in HTML.
  if (request.method === 'HEAD' || !request.api) return;
  const { head, body } = firstResponse(response);
  if (!/\r\ncontent-type: application\/json/i.test(head)) return void problems.push(`${status} without JSON: ${where} → ${JSON.stringify(`${head}\n${body}`.slice(0, 300))}`);
  try {
    const parsed = JSON.parse(body) as { code?: unknown; error?: unknown };
    if (typeof parsed.code !== 'string' || typeof parsed.error !== 'string') problems.push(`${status} body lacks {error, code}: ${where}`);
  } catch {
    problems.push(`${status} body is not JSON: ${where}`);
  }
}

/** The status of GET /api/health over the target's transport (0 when the connection fails). */
export function healthStatus(target: RawTarget): Promise<number> {
  return new Promise((resolve) => {
    const request = target.tls ? httpsRequest : httpRequest;
    const req = request(
      { host: '127.0.0.1', port: target.port, path: '/api/health', headers: { host: `127.0.0.1:${target.port}` }, rejectUnauthorized: false },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
}
