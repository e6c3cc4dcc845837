/**
 * Throughput of authenticated GET /api/state against a bare Koa handler serving the same JSON,
 * both driven by the same closed-loop load generator (keep-alive, fixed concurrency).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { BENCH_TOKEN, startProc, type Stack } from './processes.ts';
import { treeCpu } from './proc-stats.ts';

export interface ThroughputResult {
  cockpitRps: number;
  bareRps: number;
  /** Server CPU time per request, microseconds (the server's own cost, whatever the scheduler did). */
  cockpitCpuUs: number;
  bareCpuUs: number;
  ratio: number;
  concurrency: number;
}

interface Run {
  rps: number;
  cpuUs: number;
}

/** Moves a process and all its threads onto the given CPUs (`taskset`'s list syntax). */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
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
  try {
    pin(cockpitPid, '0');
    pin(barePid, '0');
    pin(process.pid, '1');
    pin(stack.sim.pid, '1');
    // Warm both up so the JIT has settled before measuring.
    await drive(stack.url, '/api/state', auth, 2, concurrency, cockpitPid);
    await drive(bareUrl, '/', {}, 2, concurrency, barePid);
    const cockpit = await drive(stack.url, '/api/state', auth, seconds, concurrency, cockpitPid);
    const bareRun = await drive(bareUrl, '/', {}, seconds, concurrency, barePid);
    return {
      cockpitRps: cockpit.rps,
      bareRps: bareRun.rps,
      cockpitCpuUs: cockpit.cpuUs,
      bareCpuUs: bareRun.cpuUs,
      ratio: cockpit.rps / bareRun.rps,
      concurrency,
    };
  } finally {
    for (const pid of [cockpitPid, process.pid, stack.sim.pid]) pin(pid, '0-1');
    await bare.stop();
  }
}
