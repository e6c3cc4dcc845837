/**
 * How fast STOP lands: with a recorded move playing on the simulator, POST /api/control/stop
 * until it answers (the daemon's running moves are empty by then, which each round checks),
 * then resume for the next round. The tests prove what a stop leaves behind; the time it takes
 * is a figure for this bench (docs/testing.md).
 */
import { BENCH_TOKEN, type Stack } from './processes.ts';
import { percentile } from './proc-stats.ts';

export interface StopResult {
  stops: number;
  p50: number;
  p99: number;
  max: number;
}

const post = (stack: Stack, path: string, body?: unknown) =>
  fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const running = async (stack: Stack): Promise<unknown[]> =>
  (await (await fetch(`${stack.simUrl}/api/move/running`)).json()) as unknown[];

export async function measureStopLatency(stack: Stack, stops: number): Promise<StopResult> {
  const times: number[] = [];
  for (let i = 0; i < stops; i += 1) {
    const played = await post(stack, '/api/control/express', { name: 'laughing1' });
    if (played.status !== 200) throw new Error(`express answered ${played.status}`);
    while ((await running(stack)).length === 0) await new Promise((r) => setImmediate(r));
    const t0 = performance.now();
    const stop = await post(stack, '/api/control/stop');
    await stop.arrayBuffer();
    times.push(performance.now() - t0);
    if (stop.status !== 200) throw new Error(`stop answered ${stop.status}`);
    const left = await running(stack);
    if (left.length > 0) throw new Error(`stop answered with ${left.length} move(s) still running`);
    await (await post(stack, '/api/console/resume')).arrayBuffer();
  }
  return { stops, p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times) };
}
