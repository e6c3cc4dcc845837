/**
 * The camera's recording rate (camera-sampler.ts): ticks on the clock take the newest frame, so a
 * 15 fps source, jittery or not, gives 5 frames per simulated second; a stalled camera gives no
 * repeated frame; a stalled event loop gives no burst.
 */
import { afterEach, expect, it } from 'vitest';
import type { CameraFrame } from '../camera/frame.ts';
import { MAX_OWED } from './camera-sampler.ts';
import { createRecorderSources } from './sources.ts';
import { startRecorderRig, type RecorderRig } from './testing/recorder-rig.ts';

let rig: RecorderRig | undefined;
afterEach(() => rig?.close());

const health = () =>
  ({
    ok: true,
    daemon: { presence: 'connected' },
    camera: { status: 'live' },
    pressure: { fds: 0, close_wait: 0 },
    stream: { hz: 0 },
    problems: {},
  }) as never;

async function cameraRig() {
  rig = await startRecorderRig();
  const { clock, recorder } = rig;
  const recorded: { ms: number; seq: number }[] = [];
  recorder.recordBytes = (_kind, data, ms) => {
    const message = JSON.parse(new TextDecoder().decode(data)) as { data: string };
    recorded.push({ ms: ms ?? 0, seq: Buffer.from(message.data, 'base64')[2] ?? -1 });
  };
  let deliver: ((frame: CameraFrame) => void) | undefined;
  const sources = createRecorderSources(
    recorder,
    {
      feed: { onSample: () => () => {} },
      state: () => undefined,
      health,
      camera: {
        subscribe: (_kind, d) => {
          deliver = d as (frame: CameraFrame) => void;
          return { close: () => {} };
        },
      },
    },
    clock,
  );
  let seq = 0;
  /** A camera on the same clock: a frame every 1000/fps ms, shifted by `jitter(i)` ms. */
  const camera = (fps: number, seconds: number, jitter = (_i: number) => 0) => {
    const from = clock.now();
    for (let i = 0; i < fps * seconds; i += 1)
      clock.schedule(
        () => {
          seq += 1;
          deliver?.({ jpeg: Buffer.from([0xff, 0xd8, seq % 256]), width: 1, height: 1, capturedAt: clock.now(), seq });
        },
        Math.round((i * 1000) / fps) + jitter(i) + (from - clock.now()),
      );
  };
  const perSecond = (from: number, seconds: number) =>
    Array.from(
      { length: seconds },
      (_, s) => recorded.filter((r) => r.ms >= from + s * 1000 && r.ms < from + (s + 1) * 1000).length,
    );
  return { clock, recorded, sources, camera, perSecond };
}

it('records 5 frames in every simulated second from a 15 fps camera, with or without jitter', async () => {
  const { clock, sources, camera, perSecond, recorded } = await cameraRig();
  const start = clock.now();
  camera(15, 10, (i) => (i * 7) % 23);
  sources.attach();
  clock.advance(10_000);
  expect(perSecond(start, 10)).toEqual(Array(10).fill(5));
  // Never the same frame twice.
  expect(new Set(recorded.map((r) => r.seq)).size).toBe(recorded.length);
});

it('records no frame twice while the camera stalls, and only a bounded catch-up after the event loop stalls', async () => {
  const { clock, sources, camera, perSecond, recorded } = await cameraRig();
  const start = clock.now();
  camera(15, 2);
  sources.attach();
  clock.advance(2100);
  expect(perSecond(start, 2)).toEqual([5, 5]);
  // The camera stops for 3 s: its last frame is recorded once, not again at every tick.
  const beforeStall = recorded.length;
  clock.advance(3000);
  expect(recorded).toHaveLength(beforeStall);
  // Frames again, then the event loop is 1 s late: one frame at once, then the schedule again.
  camera(15, 3);
  clock.advance(1000);
  expect(recorded.length).toBeGreaterThan(beforeStall);
  clock.set(clock.now() + 1000);
  const late = clock.now();
  clock.advance(1000);
  // The late tick records at once; of the slots it missed, at most MAX_OWED are caught up, each
  // with a newer frame as one arrives; then the slots of the original schedule follow.
  const after = recorded.filter((r) => r.ms >= late);
  expect(after.map((r) => r.ms - start)).toEqual([7100, ...Array(MAX_OWED).fill(7100), 7200, 7400, 7600, 7800, 8000]);
  expect(new Set(after.map((r) => r.seq)).size).toBe(after.length);
});

it('holds 5 frames a second when the loaded event loop runs ticks late, past the next slot', async () => {
  const { clock, recorded, camera } = await cameraRig();
  // Every fourth of the sampler's timers fires 260 ms late, past the next slot (a busy 2-core
  // machine); the camera keeps time.
  let n = 0;
  const late = {
    now: () => clock.now(),
    schedule: (fn: () => void, ms: number) => clock.schedule(fn, ms + ((n += 1) % 4 === 0 ? 260 : 0)),
  };
  const sources = createRecorderSources(
    rig!.recorder,
    {
      feed: { onSample: () => () => {} },
      state: () => undefined,
      health,
      camera: { subscribe: (_kind, d) => ((deliverLate = d as (frame: CameraFrame) => void), { close: () => {} }) },
    },
    late,
  );
  let deliverLate: ((frame: CameraFrame) => void) | undefined;
  const start = clock.now();
  let seq = 1000;
  for (let i = 0; i < 150; i += 1)
    clock.schedule(
      () => {
        seq += 1;
        deliverLate?.({
          jpeg: Buffer.from([0xff, 0xd8, seq % 256]),
          width: 1,
          height: 1,
          capturedAt: clock.now(),
          seq,
        });
      },
      Math.round((i * 1000) / 15),
    );
  void camera;
  sources.attach();
  clock.advance(10_000);
  const inWindow = recorded.filter((r) => r.ms >= start && r.ms < start + 10_000);
  expect(inWindow.length).toBeGreaterThanOrEqual(49);
  expect(inWindow.length).toBeLessThanOrEqual(51);
  expect(new Set(inWindow.map((r) => r.seq)).size).toBe(inWindow.length);
});
