/**
 * Throughput of authenticated GET /api/state against a bare Koa handler serving the same JSON,
 * both driven by the same closed-loop load generator (keep-alive, fixed concurrency).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { BENCH_TOKEN, startProc, type Stack } from './processes.ts';

export interface ThroughputResult {
  cockpitRps: number;
  bareRps: number;
  ratio: number;
  concurrency: number;
}

async function drive(origin: string, path: string, headers: Record<string, string>, seconds: number, concurrency: number): Promise<number> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const res = await pool.request({ path, method: 'GET', headers });
      await res.body.text();
      if (res.statusCode === 200) done += 1;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const rps = done / ((performance.now() - t0) / 1000);
  await pool.close();
  return rps;
}

export async function measureThroughput(stack: Stack, seconds: number, concurrency = 16): Promise<ThroughputResult> {
  const state = await (await fetch(`${stack.url}/api/state`, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } })).text();
  const file = join(stack.dataDir, 'bench-state.json');
  writeFileSync(file, state);
  const bare = await startProc(['bench/bare-koa.ts', file], {}, { url: /bare: koa on (\S+)/ });
  try {
    // Warm both up so the JIT has settled before measuring.
    await drive(stack.url, '/api/state', { authorization: `Bearer ${BENCH_TOKEN}` }, 2, concurrency);
    await drive(bare.found['url'] as string, '/', {}, 2, concurrency);
    const cockpitRps = await drive(stack.url, '/api/state', { authorization: `Bearer ${BENCH_TOKEN}` }, seconds, concurrency);
    const bareRps = await drive(bare.found['url'] as string, '/', {}, seconds, concurrency);
    return { cockpitRps, bareRps, ratio: cockpitRps / bareRps, concurrency };
  } finally {
    await bare.stop();
  }
}
