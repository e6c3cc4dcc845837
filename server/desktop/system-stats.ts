/** Host and process figures for the state object, sampled once a second rather than per frame. */
import { loadavg } from 'node:os';
import type { SystemStats } from '../contract/state.ts';

export function createSystemSampler(startedAt = Date.now()): { get(): SystemStats; stop(): void } {
  const sample = (): SystemStats => ({
    uptime: Math.round((Date.now() - startedAt) / 1000),
    rssMb: Math.round(process.memoryUsage.rss() / 1048576),
    load: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  });
  let current = sample();
  const timer = setInterval(() => {
    current = sample();
  }, 1000);
  timer.unref();
  return { get: () => current, stop: () => clearInterval(timer) };
}
