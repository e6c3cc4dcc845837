/** Health sampled every few seconds, kept for an hour: what the diagnostics bundle shows. */
import type { Health } from '../contract/health.ts';

export interface HealthSample {
  at: string;
  ok: boolean;
  presence: string;
  camera: string;
  fds: number;
  closeWait: number;
  streamHz: number;
  problems: string[];
}

export interface HealthHistory {
  samples(): HealthSample[];
  stop(): void;
}

export function summarise(health: Health, at: Date): HealthSample {
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

export function startHealthHistory(read: () => Health, everyMs = 10_000, keep = 360): HealthHistory {
  const samples: HealthSample[] = [];
  const timer = setInterval(() => {
    samples.push(summarise(read(), new Date()));
    if (samples.length > keep) samples.shift();
  }, everyMs);
  timer.unref();
  return { samples: () => [...samples], stop: () => clearInterval(timer) };
}
