import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.ts';
import { silentLog } from '../log.ts';
import { createVolumeControl } from './volume.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function daemonDouble(fail = false) {
  const calls: number[] = [];
  return {
    calls,
    setVolume: vi.fn(async (level: number) => {
      calls.push(level);
      if (fail) throw new AppError('DAEMON_ERROR', 'daemon refused volume (500): Internal Server Error');
      return level;
    }),
  };
}

describe('volume debounce', () => {
  it('answers at once and sends only the last level of a burst, once quiet for 400 ms', async () => {
    const daemon = daemonDouble();
    const volume = createVolumeControl({ daemon, log: silentLog });
    for (const level of [10, 20, 30, 40, 50]) {
      expect(volume.set(level)).toBe(level);
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(daemon.calls).toEqual([]);
    expect(volume.status()).toMatchObject({ requested: 50, pending: true });
    await vi.advanceTimersByTimeAsync(400);
    expect(daemon.calls).toEqual([50]);
    expect(volume.status()).toEqual({ requested: 50, applied: 50, pending: false });
  });

  it('still lands a level every 2 s while a slider never pauses', async () => {
    const daemon = daemonDouble();
    const volume = createVolumeControl({ daemon, log: silentLog });
    for (let i = 0; i < 30; i += 1) {
      volume.set(i);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(daemon.calls.length).toBe(1);
    expect(daemon.calls[0]).toBeGreaterThanOrEqual(18);
  });

  it('keeps one call in flight; the latest level follows when it returns', async () => {
    const daemon = daemonDouble();
    let release: () => void = () => {};
    daemon.setVolume.mockImplementationOnce(async (level: number) => {
      daemon.calls.push(level);
      await new Promise<void>((resolve) => (release = resolve));
      return level;
    });
    const volume = createVolumeControl({ daemon, log: silentLog });
    volume.set(30);
    await vi.advanceTimersByTimeAsync(400);
    volume.set(70);
    await vi.advanceTimersByTimeAsync(400);
    expect(daemon.calls).toEqual([30]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(daemon.calls).toEqual([30, 70]);
  });

  it('reports a level the daemon refused (no ALSA card gives 500 on the real daemon)', async () => {
    const settled: Array<[number, string | undefined]> = [];
    const volume = createVolumeControl({
      daemon: daemonDouble(true),
      log: silentLog,
      onSettled: (l, e) => settled.push([l, e]),
    });
    volume.set(42);
    await vi.advanceTimersByTimeAsync(400);
    expect(settled).toEqual([[42, 'daemon refused volume (500): Internal Server Error']]);
    expect(volume.status()).toMatchObject({ applied: undefined, pending: false });
  });
});
