/**
 * The cockpit at rest: no viewer of any kind, the camera closed by its idle stop. CPU over a
 * window and resident memory at its end, with the cockpit's age, as the stand-in for a robot's
 * small computer running it all day.
 */
import type { Stack } from './processes.ts';
import { sleep, treeCpu, treeRssMb } from './proc-stats.ts';
import { decoderProcesses } from './relay-viewers.ts';

export interface IdleResult {
  seconds: number;
  cpuPercent: number;
  rssMb: number;
  /** How long the cockpit had been running when the window ended. */
  uptimeSeconds: number;
  upstreamCameraSessions: number;
  decoderProcesses: number;
}

async function cameraSessions(stack: Stack): Promise<number> {
  const status = (await (await fetch(`${stack.simUrl}/sim/status`)).json()) as { counters: { cameraSessions: number } };
  return status.counters.cameraSessions;
}

export async function measureIdle(stack: Stack, seconds: number, startedAt: number): Promise<IdleResult> {
  // The camera closes 30 s after its last need (frame hub idle stop); wait for that, bounded.
  for (let i = 0; i < 120 && (await cameraSessions(stack)) > 0; i += 1) await sleep(500);
  const cpu0 = treeCpu(stack.cockpit.pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  stack.cockpit.assertAlive();
  return {
    seconds: elapsed,
    cpuPercent: (100 * (treeCpu(stack.cockpit.pid) - cpu0)) / elapsed,
    rssMb: treeRssMb(stack.cockpit.pid),
    uptimeSeconds: (performance.now() - startedAt) / 1000,
    upstreamCameraSessions: await cameraSessions(stack),
    decoderProcesses: decoderProcesses(stack),
  };
}
