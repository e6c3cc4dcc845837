/**
 * Throughput of authenticated GET /api/state against a bare Koa handler serving the same JSON,
 * both driven by the same closed-loop load generator (keep-alive, fixed concurrency).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { BENCH_TOKEN, startProc, type Stack } from './processes.ts';
import { treeCpu, withCores, type Placement } from './proc-stats.ts';

export interface ThroughputResult {
  cockpitRps: number;
  bareRps: number;
  /** Server CPU time per request, microseconds (the server's own cost, whatever the scheduler did). */
  cockpitCpuUs: number;
  bareCpuUs: number;
  ratio: number;
  concurrency: number;
  /** Each round's ratio, in order: the spread says how much one figure can be trusted. */
  roundRatios: number[];
}

/** Measured rounds per server, each `seconds / ROUNDS` long, alternating cockpit and bare Koa. */
const ROUNDS = 5;
const WARMUP_ROUNDS = 2;

/** The middle value of an odd-length list (ROUNDS is odd, so it is one of the rounds). */
function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}

interface Run {
  rps: number;
  cpuUs: number;
}

async function drive(origin: string, path: string, headers: Record<string, string>, seconds: number, concurrency: number, serverPid: number): Promise<Run> {
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
  const cpu0 = treeCpu(serverPid);
  await Promise.all(Array.from({ length: concurrency }, worker));
  const rps = done / ((performance.now() - t0) / 1000);
  const cpuUs = ((treeCpu(serverPid) - cpu0) * 1e6) / Math.max(1, done);
  await pool.close();
  return { rps, cpuUs };
}

export async function measureThroughput(stack: Stack, seconds: number, concurrency = 16): Promise<ThroughputResult> {
  const state = await (await fetch(`${stack.url}/api/state`, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } })).text();
  const file = join(stack.dataDir, 'bench-state.json');
  writeFileSync(file, state);
  const bare = await startProc(['bench/bare-koa.ts', file], {}, { url: /bare: koa on (\S+)/ });
  const bareUrl = bare.found['url'] as string;
  const auth = { authorization: `Bearer ${BENCH_TOKEN}` };
  // The server under test gets core 0 to itself; this load generator and the simulator share
  // core 1, as if the generator were another machine. Unpinned, the three contend for both
  // cores and the ratio measures the scheduler as much as the server.
  const cockpitPid = stack.cockpit.pid;
  const barePid = bare.pid;
  const placement: Placement[] = [
    [cockpitPid, '0'],
    [barePid, '0'],
    [process.pid, '1'],
    [stack.sim.pid, '1'],
  ];
  try {
    return await withCores(placement, async () => {
      const cockpitRun = () => drive(stack.url, '/api/state', auth, seconds / ROUNDS, concurrency, cockpitPid);
      const bareRun = () => drive(bareUrl, '/', {}, seconds / ROUNDS, concurrency, barePid);
      // Warm both up until the JIT has settled: one 10 s run after a 2 s warm-up measured 0.78 of
      // bare Koa where the next two measured 1.08 and 1.12, the cockpit still compiling its path.
      for (let i = 0; i < WARMUP_ROUNDS; i += 1) {
        await cockpitRun();
        await bareRun();
      }
      // Interleaved rounds, so a neighbour's burst or a GC lands on both sides alike; the median
      // round stands for the phase.
      const rounds: Array<{ cockpit: Run; bare: Run }> = [];
      for (let i = 0; i < ROUNDS; i += 1) rounds.push({ cockpit: await cockpitRun(), bare: await bareRun() });
      const roundRatios = rounds.map((r) => r.cockpit.rps / r.bare.rps);
      const middle = median(roundRatios);
      const typical = rounds[roundRatios.indexOf(middle)] as { cockpit: Run; bare: Run };
      return {
        cockpitRps: typical.cockpit.rps,
        bareRps: typical.bare.rps,
        cockpitCpuUs: typical.cockpit.cpuUs,
        bareCpuUs: typical.bare.cpuUs,
        ratio: middle,
        concurrency,
        roundRatios,
      };
    });
  } finally {
    await bare.stop();
  }
}
