/**
 * The control path: POST /api/control/look through the cockpit against the same goto sent
 * straight to the simulator, sequentially, plus the cockpit's own share read from its
 * Server-Timing header (receive → daemon send). The first WARMUP pairs are not counted: they
 * measure V8 compiling the path (a cold first run showed a p99 of ~1.9 ms, warm ones 0.4–0.5 ms),
 * not the path an operator's stream of moves takes.
 */
import { BENCH_TOKEN, type Stack } from './processes.ts';
import { percentile } from './proc-stats.ts';

export interface ControlResult {
  requests: number;
  directP50: number;
  directP99: number;
  cockpitP50: number;
  cockpitP99: number;
  ratioP50: number;
  receiveToDaemonP50: number;
  receiveToDaemonP99: number;
}

async function timed(fn: () => Promise<Response>): Promise<{ ms: number; res: Response }> {
  const t0 = performance.now();
  const res = await fn();
  await res.arrayBuffer();
  return { ms: performance.now() - t0, res };
}

export const WARMUP = 50;

export async function measureControlPath(stack: Stack, requests: number): Promise<ControlResult> {
  const direct: number[] = [];
  const cockpit: number[] = [];
  const own: number[] = [];
  for (let i = -WARMUP; i < requests; i += 1) {
    const yaw = (i % 2 === 0 ? 5 : -5) * (Math.PI / 180);
    const d = await timed(() =>
      fetch(`${stack.simUrl}/api/move/goto`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ head_pose: { yaw }, duration: 0.5 }),
      }),
    );
    const c = await timed(() =>
      fetch(`${stack.url}/api/control/look`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ yaw: i % 2 === 0 ? 5 : -5, duration: 0.5 }),
      }),
    );
    if (c.res.status !== 200) throw new Error(`look answered ${c.res.status}`);
    if (i < 0) continue;
    direct.push(d.ms);
    cockpit.push(c.ms);
    const match = /cockpit;dur=([\d.]+)/.exec(c.res.headers.get('server-timing') ?? '');
    if (match) own.push(Number(match[1]));
  }
  return {
    requests,
    directP50: percentile(direct, 50),
    directP99: percentile(direct, 99),
    cockpitP50: percentile(cockpit, 50),
    cockpitP99: percentile(cockpit, 99),
    ratioP50: percentile(cockpit, 50) / percentile(direct, 50),
    receiveToDaemonP50: percentile(own, 50),
    receiveToDaemonP99: percentile(own, 99),
  };
}
