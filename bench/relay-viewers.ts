/**
 * WebRTC relay fan-out: N viewers, each a werift peer connection signalled over its own /ws
 * socket exactly as the dashboard does (contract/video.ts). The cockpit's own counters
 * (GET /api/console/camera/relay) give the packets forwarded and the added latency, daemon
 * packet in → viewer packet out; the simulator says how many camera sessions the cockpit holds;
 * /proc says whether an ffmpeg decoder runs.
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { createWeriftViewer, type WeriftViewer } from '../server/camera/relay/testing/werift-viewer.ts';
import { BENCH_TOKEN, type Stack } from './processes.ts';
import { countsBetween, quantileOf, type LatencyCounts } from '../server/camera/relay/latency-histogram.ts';
import { descendants, sleep, treeCpu, withCores } from './proc-stats.ts';

export interface RelayResult {
  viewers: number;
  /** Viewers that did not get video (refused, or closed by the relay before their first packet). */
  failedJoins: number;
  seconds: number;
  cpuPercent: number;
  cpuPercentPerViewer: number;
  /** Packets the relay handed to viewers per second, all viewers together. */
  packetsOutPerSecond: number;
  /** Packets per second each viewer received (its own count). */
  packetsPerViewerPerSecond: number;
  upstreamCameraSessions: number;
  decoderProcesses: number;
  addedLatencyP50Ms: number | null;
  addedLatencyP99Ms: number | null;
  /** A picture's first packet in → its last packet out, per picture and viewer (the wait behind a burst included). */
  pictureLatencyP50Ms: number | null;
  pictureLatencyP99Ms: number | null;
}

interface RelayCounters {
  relay: { packetsOut: number; latencyCounts: LatencyCounts; pictureLatencyCounts: LatencyCounts };
}

async function counters(stack: Stack): Promise<RelayCounters> {
  const res = await fetch(`${stack.url}/api/console/camera/relay`, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
  return (await res.json()) as RelayCounters;
}

async function cameraSessions(stack: Stack): Promise<number> {
  const status = (await (await fetch(`${stack.simUrl}/sim/status`)).json()) as { counters: { cameraSessions: number } };
  return status.counters.cameraSessions;
}

/** ffmpeg processes under the cockpit (the JPEG decoder is the only one the camera runs). */
export function decoderProcesses(stack: Stack): number {
  return descendants(stack.cockpit.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'ffmpeg';
    } catch {
      return false;
    }
  }).length;
}

export interface RelayBenchViewer {
  client: WeriftViewer;
  close(): Promise<void>;
}

/** One viewer through /ws signalling; resolves once its first packet has arrived. */
export function openRelayViewer(url: string): Promise<RelayBenchViewer> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?token=${BENCH_TOKEN}`, { perMessageDeflate: false });
  const client = createWeriftViewer();
  const close = async (): Promise<void> => {
    ws.close();
    await client.close();
  };
  return new Promise((resolve, fail) => {
    const reject = (error: Error): void => {
      clearTimeout(timer);
      void close();
      fail(error);
    };
    const timer = setTimeout(() => reject(new Error('relay viewer got no packet in 30 s')), 30_000);
    client.onPacket(() => {
      if (client.received !== 1) return;
      clearTimeout(timer);
      resolve({ client, close });
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const m = JSON.parse(String(data)) as { type?: string; action?: string; id?: number; sdp?: string; error?: string; reason?: string };
      if (m.type !== 'video') return;
      if (m.action === 'offer' && m.sdp) {
        void client.answer(m.sdp).then((sdp) => ws.send(JSON.stringify({ type: 'video', action: 'answer', id: m.id, sdp })));
      } else if (m.action === 'refused' || m.action === 'closed') reject(new Error(`relay: ${m.action}: ${m.error ?? m.reason ?? ''}`));
    });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'video', action: 'start' })));
    ws.once('error', reject);
  });
}

/**
 * The cockpit's event loop has core 0 to itself; the simulator and this process, whose werift
 * viewers stand in for browsers on other machines, share core 1. Unpinned, the viewers' own
 * decryption competed with the cockpit for both cores and the added latency measured the
 * scheduler as much as the relay (the throughput phase keeps the load generator off core 0 for
 * the same reason). The cockpit's other threads (V8's garbage collector and compiler, libuv's pool) run on
 * core 1 too, as they would on any multi-core board: on core 0 they took the event loop's core
 * for 2 to 7 ms at a time, in the middle of a keyframe's fan-out. `oneCore` keeps the whole
 * cockpit on core 0 instead, for the stand-in for a small board.
 */
export function measureRelay(stack: Stack, viewers: number, seconds: number, oneCore = false): Promise<RelayResult> {
  return withCores(
    [
      [stack.cockpit.pid, '0', oneCore ? '0' : '1'],
      [stack.sim.pid, '1'],
      [process.pid, '1'],
    ],
    () => measurePlacedRelay(stack, viewers, seconds),
  );
}

async function measurePlacedRelay(stack: Stack, viewers: number, seconds: number): Promise<RelayResult> {
  const opened: RelayBenchViewer[] = [];
  let failedJoins = 0;
  // Joined in groups of ten, as people arrive, so set-up (DTLS) does not swamp the measurement.
  for (let i = 0; i < viewers; i += 10) {
    const group = await Promise.allSettled(Array.from({ length: Math.min(10, viewers - i) }, () => openRelayViewer(stack.url)));
    for (const joined of group) {
      if (joined.status === 'fulfilled') opened.push(joined.value);
      else failedJoins += 1;
    }
  }
  await sleep(1500);
  const received0 = opened.reduce((s, v) => s + v.client.received, 0);
  const before = await counters(stack);
  const cpu0 = treeCpu(stack.cockpit.pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = (100 * (treeCpu(stack.cockpit.pid) - cpu0)) / elapsed;
  stack.cockpit.assertAlive();
  const after = await counters(stack);
  // Every packet of the measured span, not only the relay's recent window.
  const span = countsBetween(before.relay.latencyCounts, after.relay.latencyCounts);
  const pictures = countsBetween(before.relay.pictureLatencyCounts, after.relay.pictureLatencyCounts);
  const received = opened.reduce((s, v) => s + v.client.received, 0) - received0;
  const result: RelayResult = {
    viewers,
    failedJoins,
    seconds: elapsed,
    cpuPercent: cpu,
    cpuPercentPerViewer: cpu / viewers,
    packetsOutPerSecond: (after.relay.packetsOut - before.relay.packetsOut) / elapsed,
    packetsPerViewerPerSecond: received / viewers / elapsed,
    upstreamCameraSessions: await cameraSessions(stack),
    decoderProcesses: decoderProcesses(stack),
    addedLatencyP50Ms: quantileOf(span, 0.5),
    addedLatencyP99Ms: quantileOf(span, 0.99),
    pictureLatencyP50Ms: quantileOf(pictures, 0.5),
    pictureLatencyP99Ms: quantileOf(pictures, 0.99),
  };
  await Promise.all(opened.map((v) => v.close()));
  await sleep(500);
  return result;
}
