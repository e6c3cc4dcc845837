/** The health history on the manual clock: cadence, ring bound, window, sample shape and CPU share. */
import { describe, expect, it } from 'vitest';
import type { Health, HealthSample } from '../contract/health.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { createControlLatency } from './control-latency.ts';
import { startHealthHistory } from './health-history.ts';

function health(overrides: { fps?: number; loopHz?: number | null; streamHz?: number; ok?: boolean } = {}): Health {
  return {
    ok: overrides.ok ?? true,
    daemon: {
      reachable: true,
      presence: 'connected',
      url: 'simulator',
      simulated: true,
      physics: 'mockup',
      state: 'running',
      version: '1.10.0',
      version_check: {
        tested: { min: '1', max: '2' },
        in_range: true,
        warning: null,
        capabilities_known: true,
        missing: [],
      },
      loop_hz: overrides.loopHz === undefined ? null : overrides.loopHz,
    },
    camera: { status: 'live', fps: overrides.fps ?? 15 },
    last_error: null,
    last_error_at: null,
    problems: overrides.ok === false ? { 'stream:silent': 'no state' } : {},
    pressure: {
      source: 'cockpit',
      pid: 1,
      fds: 40,
      fd_limit: 1024,
      close_wait: 0,
      cockpit_close_wait: 0,
      warning: false,
    },
    stream: { connected: true, hz: overrides.streamHz ?? 30 },
    version: '0.0.0',
    identity: { name: 'r', kind: 'desktop', https_port: null, fingerprint: null },
  };
}

function rig(options: { everyMs?: number; keep?: number } = {}) {
  const clock = createManualClock();
  const control = createControlLatency();
  let current = health();
  let cpu = { user: 0, system: 0 };
  const history = startHealthHistory({
    health: () => current,
    control,
    clock,
    cpuUsage: () => cpu,
    ...options,
  });
  return {
    clock,
    control,
    history,
    setHealth: (h: Health) => void (current = h),
    useCpu: (userMicros: number, systemMicros: number) =>
      void (cpu = { user: cpu.user + userMicros, system: cpu.system + systemMicros }),
  };
}

describe('health history', () => {
  it('takes one sample per interval of the clock, none before the first is due', () => {
    const { clock, history } = rig({ everyMs: 5000 });
    clock.advance(4999);
    expect(history.samples()).toEqual([]);
    clock.advance(1);
    expect(history.samples()).toHaveLength(1);
    clock.advance(5000 * 3);
    expect(history.samples().map((s) => s.t - history.samples()[0]!.t)).toEqual([0, 5000, 10_000, 15_000]);
    history.stop();
  });

  it('keeps at most `keep` samples, dropping the oldest', () => {
    const { clock, history } = rig({ everyMs: 1000, keep: 3 });
    clock.advance(5000);
    const kept = history.samples();
    expect(kept).toHaveLength(3);
    expect(kept.map((s) => s.t - clock.now())).toEqual([-2000, -1000, 0]);
    history.stop();
  });

  it('answers the samples of a window of the clock, oldest first', () => {
    const { clock, history } = rig({ everyMs: 5000 });
    clock.advance(60_000);
    expect(history.recent(20_000).map((s) => clock.now() - s.t)).toEqual([15_000, 10_000, 5000, 0]);
    expect(history.samples()).toHaveLength(12);
    history.stop();
  });

  it('records the health figures, control latency and CPU share of each interval', () => {
    const { clock, control, history, setHealth, useCpu } = rig({ everyMs: 5000 });
    setHealth(health({ fps: 12.5, loopHz: 49.9, streamHz: 29.8, ok: false }));
    control.record(4);
    control.record(10);
    control.record(6);
    // 1 s of CPU time over a 5 s interval: 20 % of one core.
    useCpu(700_000, 300_000);
    clock.advance(5000);
    const [first] = history.samples();
    expect(first).toEqual<HealthSample>({
      t: clock.now(),
      at: new Date(clock.now()).toISOString(),
      ok: false,
      presence: 'connected',
      camera: 'live',
      fds: 40,
      closeWait: 0,
      streamHz: 29.8,
      loopHz: 49.9,
      cameraFps: 12.5,
      control: { count: 3, p50Ms: 6, maxMs: 10 },
      cpuPercent: 20,
      problems: ['stream:silent'],
    });
    // The next interval starts over: no control request, no CPU used.
    clock.advance(5000);
    expect(history.samples()[1]).toMatchObject({ control: { count: 0, p50Ms: null, maxMs: null }, cpuPercent: 0 });
    history.stop();
  });

  it('tells each listener about each new sample until it unsubscribes, and stops sampling when stopped', () => {
    const { clock, history } = rig({ everyMs: 1000 });
    const heard: number[] = [];
    const off = history.onSample((s) => heard.push(s.t));
    clock.advance(2000);
    off();
    clock.advance(1000);
    expect(heard).toHaveLength(2);
    expect(history.samples()).toHaveLength(3);
    history.stop();
    clock.advance(10_000);
    expect(history.samples()).toHaveLength(3);
    expect(clock.pending()).toBe(0);
  });
});

describe('control latency', () => {
  it('counts every timing but keeps a bounded number for the median and maximum', () => {
    const control = createControlLatency();
    for (let i = 0; i < 2500; i += 1) control.record(i < 500 ? 1000 : 1);
    control.record(Number.NaN);
    control.record(-1);
    expect(control.drain()).toEqual({ count: 2500, p50Ms: 1, maxMs: 1 });
    expect(control.drain()).toEqual({ count: 0, p50Ms: null, maxMs: null });
  });
});
