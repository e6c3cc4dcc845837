/**
 * Camera fan-out: N MJPEG viewers of /api/stream. JPEG starts (FF D8 FF) are counted in the
 * byte stream; the simulator reports how many camera sessions the cockpit holds upstream.
 */
import { request } from 'node:http';
import { BENCH_TOKEN, type Stack } from './processes.ts';
import { sleep, treeCpu } from './proc-stats.ts';

export interface CameraResult {
  viewers: number;
  framesPerViewerPerSecond: number;
  cpuPercent: number;
  cpuPercentPerViewer: number;
  upstreamCameraSessions: number;
}

interface Viewer {
  frames: number;
  close(): void;
}

function openViewer(url: string): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const viewer: Viewer = { frames: 0, close: () => req.destroy() };
    let tail = Buffer.alloc(0);
    const req = request(`${url}/api/stream?token=${BENCH_TOKEN}`, (res) => {
      res.on('data', (chunk: Buffer) => {
        const data = Buffer.concat([tail, chunk]);
        for (let i = data.indexOf(0xff); i >= 0 && i < data.length - 2; i = data.indexOf(0xff, i + 1)) {
          if (data[i + 1] === 0xd8 && data[i + 2] === 0xff) viewer.frames += 1;
        }
        tail = data.subarray(Math.max(0, data.length - 2));
      });
      res.on('error', () => undefined);
      resolve(viewer);
    });
    req.on('error', (err) => (viewer.frames === 0 ? reject(err) : undefined));
    req.end();
  });
}

async function cameraSessions(stack: Stack): Promise<number> {
  const status = (await (await fetch(`${stack.simUrl}/sim/status`)).json()) as { counters: { cameraSessions: number } };
  return status.counters.cameraSessions;
}

/** Waits until the cockpit serves frames (the camera starts on first need). */
export async function warmCamera(stack: Stack): Promise<void> {
  for (let i = 0; i < 60; i += 1) {
    const res = await fetch(`${stack.url}/api/snapshot.jpg?token=${BENCH_TOKEN}`);
    await res.arrayBuffer();
    if (res.status === 200) return;
    await sleep(250);
  }
  throw new Error('the camera never produced a frame');
}

export async function measureCameraFanout(stack: Stack, viewers: number, seconds: number): Promise<CameraResult> {
  const opened = await Promise.all(Array.from({ length: viewers }, () => openViewer(stack.url)));
  await sleep(1500);
  for (const v of opened) v.frames = 0;
  const cpu0 = treeCpu(stack.cockpit.pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = (100 * (treeCpu(stack.cockpit.pid) - cpu0)) / elapsed;
  const sessions = await cameraSessions(stack);
  const frames = opened.reduce((s, v) => s + v.frames, 0);
  for (const v of opened) v.close();
  await sleep(500);
  return {
    viewers,
    framesPerViewerPerSecond: frames / viewers / elapsed,
    cpuPercent: cpu,
    cpuPercentPerViewer: cpu / viewers,
    upstreamCameraSessions: sessions,
  };
}
