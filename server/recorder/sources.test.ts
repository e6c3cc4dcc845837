/** The camera's recording rate: a schedule, so a 15 fps source gives 5 fps, and a stall no burst. */
import { afterEach, expect, it } from 'vitest';
import type { CameraFrame } from '../camera/frame.ts';
import { createRecorderSources } from './sources.ts';
import { startRecorderRig, type RecorderRig } from './testing/recorder-rig.ts';

let rig: RecorderRig | undefined;
afterEach(() => rig?.close());

it('records 5 of every 15 frames a second, and restarts the schedule after a stall', async () => {
  rig = await startRecorderRig();
  const { clock, recorder } = rig;
  const recorded: number[] = [];
  recorder.recordBytes = (_kind, _data, ms) => void recorded.push(ms ?? 0);
  let deliver: ((frame: CameraFrame) => void) | undefined;
  const sources = createRecorderSources(
    recorder,
    {
      feed: { onSample: () => () => {} },
      state: () => undefined,
      health: () =>
        ({
          ok: true,
          daemon: { presence: 'connected' },
          camera: { status: 'live' },
          pressure: { fds: 0, close_wait: 0 },
          stream: { hz: 0 },
          problems: {},
        }) as never,
      camera: {
        subscribe: (_kind, d) => {
          deliver = d;
          return { close: () => {} };
        },
      },
    },
    clock,
  );
  sources.attach();
  const start = clock.now();
  const frame = (): CameraFrame => ({
    jpeg: Buffer.from([0xff, 0xd8]),
    width: 1,
    height: 1,
    capturedAt: clock.now(),
    seq: 0,
  });
  // 3 s at 15 fps, with up to 10 ms of jitter.
  for (let i = 0; i < 45; i += 1) {
    clock.set(start + Math.round((i * 1000) / 15) + (i % 3) * 5);
    deliver?.(frame());
  }
  expect(recorded.length).toBe(15);
  // A 5 s stall, then frames again: one at once, the next a gap later, never a burst.
  const after = start + 8000;
  for (let i = 0; i < 6; i += 1) {
    clock.set(after + Math.round((i * 1000) / 15));
    deliver?.(frame());
  }
  expect(recorded.slice(15).map((t) => t - after)).toEqual([0, 200]);
});
