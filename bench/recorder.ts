/**
 * The black box recorder's cost: the same cockpit with the recorder on (defaults: camera at
 * 5 fps) and off (ROBOT_RECORD_MINUTES=0), each with one MJPEG viewer so the camera decoder runs
 * in both and the difference is the recorder's own work. Reports the cockpit's CPU, the ring's
 * disk bytes per minute (with and without camera frames) and the control path in both.
 */
import { request } from 'node:http';
import { measureControlPath, type ControlResult } from './control-path.ts';
import { warmCamera } from './camera-fanout.ts';
import { BENCH_TOKEN, startStack, type Stack } from './processes.ts';
import { sleep, treeCpu } from './proc-stats.ts';

export interface RecorderSide {
  cpuPercent: number;
  control: ControlResult;
}

export interface RecorderResult {
  seconds: number;
  on: RecorderSide;
  off: RecorderSide;
  /** on − off, percent of one core. */
  overheadPercent: number;
  bytesPerMinuteWithCamera: number;
  bytesPerMinuteStateOnly: number;
  cameraFramesPerSecond: number;
  /** Pictures per second the frame hub received from the camera meanwhile (its meter, /api/health). */
  sourceFramesPerSecond: number;
}

interface RecorderView {
  recorder: { ringBytes: number; channels: Record<string, number> };
}

const api = (stack: Stack, path: string, init: RequestInit = {}) =>
  fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
  });

async function recorderView(stack: Stack): Promise<RecorderView['recorder']> {
  return ((await (await api(stack, '/api/console/recordings')).json()) as RecorderView).recorder;
}

/** One MJPEG viewer that reads and discards, so the camera decoder runs whatever the recorder does. */
function openViewer(stack: Stack): () => void {
  const req = request(`${stack.url}/api/stream?token=${BENCH_TOKEN}`, (res) => {
    res.on('data', () => undefined);
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  req.end();
  return () => req.destroy();
}

async function cpuOver(stack: Stack, seconds: number): Promise<number> {
  const cpu0 = treeCpu(stack.cockpit.pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  return (100 * (treeCpu(stack.cockpit.pid) - cpu0)) / ((performance.now() - t0) / 1000);
}

/** The frame hub's own rate meter: what the camera delivered, whatever the recorder took. */
async function sourceFps(stack: Stack): Promise<number> {
  const health = (await (await fetch(`${stack.url}/api/health`)).json()) as { camera?: { fps?: number } };
  return health.camera?.fps ?? NaN;
}

/** Ring growth per minute over `seconds` (the ring is far from its bounds this early). */
async function bytesPerMinute(
  stack: Stack,
  seconds: number,
): Promise<{ perMinute: number; frames: number; source: number }> {
  const a = await recorderView(stack);
  const t0 = performance.now();
  const source: number[] = [];
  for (let s = 0; s < seconds; s += 1) {
    await sleep(1000);
    source.push(await sourceFps(stack));
  }
  const b = await recorderView(stack);
  const elapsed = (performance.now() - t0) / 1000;
  const frames = ((b.channels['/camera/jpeg'] ?? 0) - (a.channels['/camera/jpeg'] ?? 0)) / elapsed;
  const meanSource = source.reduce((sum, x) => sum + x, 0) / Math.max(1, source.length);
  return { perMinute: ((b.ringBytes - a.ringBytes) / elapsed) * 60, frames, source: meanSource };
}

async function side(env: Record<string, string>, seconds: number, requests: number, disk: boolean) {
  const stack = await startStack({ ROBOT_RATE_LIMIT: '1000', ...env });
  try {
    await warmCamera(stack);
    const close = openViewer(stack);
    await sleep(3000);
    const cpuPercent = await cpuOver(stack, seconds);
    const withCamera = disk ? await bytesPerMinute(stack, seconds) : undefined;
    const control = await measureControlPath(stack, requests);
    close();
    let stateOnly: number | undefined;
    if (disk) {
      await api(stack, '/api/console/recorder', { method: 'PUT', body: JSON.stringify({ camera: false }) });
      // The segment being filled when the switch flipped still carries frames: start after it.
      await sleep(11_000);
      stateOnly = (await bytesPerMinute(stack, seconds)).perMinute;
    }
    return { side: { cpuPercent, control }, withCamera, stateOnly };
  } finally {
    await stack.stop();
  }
}

export async function measureRecorder(seconds: number, requests: number): Promise<RecorderResult> {
  const on = await side({}, seconds, requests, true);
  const off = await side({ ROBOT_RECORD_MINUTES: '0' }, seconds, requests, false);
  return {
    seconds,
    on: on.side,
    off: off.side,
    overheadPercent: on.side.cpuPercent - off.side.cpuPercent,
    bytesPerMinuteWithCamera: on.withCamera?.perMinute ?? NaN,
    bytesPerMinuteStateOnly: on.stateOnly ?? NaN,
    cameraFramesPerSecond: on.withCamera?.frames ?? NaN,
    sourceFramesPerSecond: on.withCamera?.source ?? NaN,
  };
}
