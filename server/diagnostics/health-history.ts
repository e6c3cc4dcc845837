/**
 * The cockpit's health over time, sampled every few seconds on the server clock and kept for an
 * hour: the dashboard's health plots read its last ten minutes (GET /api/console/health/history,
 * then a `health_sample` frame per sample), the diagnostics bundle takes all of it. Each sample
 * carries the health summary and four performance figures: the daemon's loop and state stream
 * rates, control latency (control-latency.ts), camera fps and the cockpit's own CPU use.
 */
import type { Health, HealthSample } from '../contract/health.ts';
import type { TimerClock } from '../clock.ts';
import type { ControlLatency } from './control-latency.ts';

/** What the recorder and the bundle read of a health picture at one instant. */
export type HealthSummary = Pick<
  HealthSample,
  'at' | 'ok' | 'presence' | 'camera' | 'fds' | 'closeWait' | 'streamHz' | 'problems'
>;

export interface HealthHistory {
  /** Every sample kept, oldest first. */
  samples(): HealthSample[];
  /** The samples of the last `windowMs` of the clock, oldest first. */
  recent(windowMs: number): HealthSample[];
  readonly everyMs: number;
  /** Hears each new sample; returns the unsubscribe. */
  onSample(listener: (sample: HealthSample) => void): () => void;
  stop(): void;
}

export interface HealthHistoryOptions {
  health: () => Health;
  control: ControlLatency;
  clock: TimerClock;
  /** The process's CPU time so far (process.cpuUsage); tests pass their own. */
  cpuUsage?: () => { user: number; system: number };
  everyMs?: number;
  keep?: number;
}

/** Every 5 s for an hour: 720 small samples. */
export const HEALTH_EVERY_MS = 5000;
export const HEALTH_KEEP = 720;

export function summarise(health: Health, at: Date): HealthSummary {
  return {
    at: at.toISOString(),
    ok: health.ok,
    presence: health.daemon.presence,
    camera: health.camera.status,
    fds: health.pressure.fds,
    closeWait: health.pressure.close_wait,
    streamHz: health.stream.hz,
    problems: Object.keys(health.problems),
  };
}

export function startHealthHistory(options: HealthHistoryOptions): HealthHistory {
  const { clock, control } = options;
  const everyMs = options.everyMs ?? HEALTH_EVERY_MS;
  const keep = options.keep ?? HEALTH_KEEP;
  const cpuUsage = options.cpuUsage ?? (() => process.cpuUsage());
  const samples: HealthSample[] = [];
  let listeners: ((sample: HealthSample) => void)[] = [];
  let lastCpu = cpuUsage();
  let lastAt = clock.now();
  let cancel: () => void = () => {};

  const take = (): void => {
    const now = clock.now();
    const cpu = cpuUsage();
    const cpuMicros = cpu.user - lastCpu.user + (cpu.system - lastCpu.system);
    const elapsedMs = now - lastAt;
    lastCpu = cpu;
    lastAt = now;
    const health = options.health();
    const sample: HealthSample = {
      t: now,
      ...summarise(health, new Date(now)),
      loopHz: health.daemon.loop_hz,
      cameraFps: health.camera.fps,
      control: control.drain(),
      cpuPercent: elapsedMs > 0 ? Math.round((cpuMicros / (elapsedMs * 1000)) * 1000) / 10 : 0,
    };
    samples.push(sample);
    if (samples.length > keep) samples.splice(0, samples.length - keep);
    for (const listener of listeners) listener(sample);
  };

  // A schedule per sample rather than an interval: the manual clock in tests has only schedule.
  const next = (): void => {
    cancel = clock.schedule(() => {
      next();
      take();
    }, everyMs);
  };
  next();

  return {
    everyMs,
    samples: () => [...samples],
    recent(windowMs) {
      const from = clock.now() - windowMs;
      return samples.filter((s) => s.t > from);
    },
    onSample(listener) {
      listeners = [...listeners, listener];
      return () => {
        listeners = listeners.filter((l) => l !== listener);
      };
    },
    stop: () => cancel(),
  };
}
