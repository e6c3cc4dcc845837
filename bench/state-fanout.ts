/**
 * State fan-out: N WebSocket viewers of /ws at ROBOT_WS_HZ. Frames are counted and timed, not
 * parsed, so the load generator stays cheap next to the cockpit it measures.
 */
import WebSocket from 'ws';
import { BENCH_TOKEN, type Stack } from './processes.ts';
import { percentile, sleep, treeCpu, treeRssMb } from './proc-stats.ts';

export interface FanoutResult {
  viewers: number;
  seconds: number;
  framesPerViewerPerSecond: number;
  deliveredPercent: number;
  p99GapMs: number;
  cpuPercent: number;
  rssMb: number;
  upstreamRequestsPerSecond: number;
  upstreamStateStreams: number;
}

interface Viewer {
  ws: WebSocket;
  frames: number;
  last: number;
  gaps: number[];
}

async function simCounters(stack: Stack): Promise<{ httpRequests: number; stateWsClients: number }> {
  const status = (await (await fetch(`${stack.simUrl}/sim/status`)).json()) as { counters: { httpRequests: number; stateWsClients: number } };
  return status.counters;
}

function openViewer(url: string): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?token=${BENCH_TOKEN}`, { perMessageDeflate: false });
    const viewer: Viewer = { ws, frames: 0, last: 0, gaps: [] };
    ws.on('message', (data: Buffer, isBinary) => {
      // State frames start with {"type":"state"; health and other frames are not counted.
      if (isBinary || data[9] !== 0x73 || data[10] !== 0x74) return;
      const now = performance.now();
      if (viewer.last > 0) viewer.gaps.push(now - viewer.last);
      viewer.last = now;
      viewer.frames += 1;
    });
    ws.once('open', () => resolve(viewer));
    ws.once('error', reject);
  });
}

export async function measureStateFanout(stack: Stack, viewers: number, seconds: number, hz = 15): Promise<FanoutResult> {
  const opened: Viewer[] = [];
  for (let i = 0; i < viewers; i += 50) {
    opened.push(...(await Promise.all(Array.from({ length: Math.min(50, viewers - i) }, () => openViewer(stack.url)))));
  }
  await sleep(1500);
  for (const v of opened) {
    v.frames = 0;
    v.gaps = [];
    v.last = 0;
  }
  const cpu0 = treeCpu(stack.cockpit.pid);
  const up0 = await simCounters(stack);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu1 = treeCpu(stack.cockpit.pid);
  const up1 = await simCounters(stack);
  const rssMb = treeRssMb(stack.cockpit.pid);
  const frames = opened.reduce((s, v) => s + v.frames, 0);
  const gaps = opened.flatMap((v) => v.gaps);
  for (const v of opened) v.ws.terminate();
  await sleep(500);
  return {
    viewers,
    seconds: elapsed,
    framesPerViewerPerSecond: frames / viewers / elapsed,
    deliveredPercent: (100 * frames) / (viewers * hz * elapsed),
    p99GapMs: percentile(gaps, 99),
    cpuPercent: (100 * (cpu1 - cpu0)) / elapsed,
    rssMb,
    upstreamRequestsPerSecond: (up1.httpRequests - up0.httpRequests) / elapsed,
    upstreamStateStreams: up1.stateWsClients,
  };
}
