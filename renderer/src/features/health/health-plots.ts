/**
 * The four health plots: which figures each draws, in which colours, and what each says in words
 * (its text alternative). The points are kept sorted by time, one per sample, over the window
 * the cockpit answers (ten minutes), measured from the newest sample: the cockpit's clock, never
 * the browser's.
 */
import type { HealthPoint } from './health-api.ts';

export const HEALTH_WINDOW_SECONDS = 600;

export interface HealthPlotSpec {
  key: 'rate' | 'latency' | 'camera' | 'cpu';
  title: string;
  series: { label: string; colour: string }[];
  values(p: HealthPoint): (number | null)[];
  summary(p: HealthPoint | null): string;
  /** The least top of the y axis, so a quiet plot does not magnify noise. */
  floor: number;
}

const hz = (v: number | null) => (v === null ? 'not reported' : `${v.toFixed(1)} Hz`);
const ms = (v: number | null) => (v === null ? '—' : `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`);
const WAITING = 'Waiting for the first sample';

export const HEALTH_PLOTS: readonly HealthPlotSpec[] = [
  {
    key: 'rate',
    title: 'Daemon rate (Hz)',
    series: [
      { label: 'State stream', colour: '--accent' },
      { label: 'Control loop', colour: '--warn' },
    ],
    values: (p) => [p.streamHz, p.loopHz],
    summary: (p) => (p ? `State stream ${hz(p.streamHz)}, control loop ${hz(p.loopHz)}` : WAITING),
    floor: 10,
  },
  {
    key: 'latency',
    title: 'Control latency (ms)',
    series: [
      { label: 'Median', colour: '--accent' },
      { label: 'Slowest', colour: '--warn' },
    ],
    values: (p) => [p.control.p50Ms, p.control.maxMs],
    summary: (p) => {
      if (!p) return WAITING;
      const { count, p50Ms, maxMs } = p.control;
      if (count === 0) return 'No control request in the last sample';
      return `Median ${ms(p50Ms)}, slowest ${ms(maxMs)} (${count} request${count === 1 ? '' : 's'})`;
    },
    floor: 5,
  },
  {
    key: 'camera',
    title: 'Camera (fps)',
    series: [{ label: 'Frames per second', colour: '--accent' }],
    values: (p) => [p.cameraFps],
    summary: (p) => (p ? `${p.cameraFps.toFixed(1)} fps` : WAITING),
    floor: 5,
  },
  {
    key: 'cpu',
    title: 'Cockpit CPU (% of one core)',
    series: [{ label: 'CPU', colour: '--accent' }],
    values: (p) => [p.cpuPercent],
    summary: (p) => (p ? `${p.cpuPercent.toFixed(1)} %` : WAITING),
    floor: 10,
  },
];

/** Adds points (history or live), one per time, sorted, trimmed to the window from the newest. */
export function mergePoints(kept: readonly HealthPoint[], added: readonly HealthPoint[]): HealthPoint[] {
  const byTime = new Map(kept.map((p) => [p.t, p]));
  for (const p of added) byTime.set(p.t, p);
  const sorted = [...byTime.values()].sort((a, b) => a.t - b.t);
  const newest = sorted.at(-1)?.t ?? 0;
  return sorted.filter((p) => p.t > newest - HEALTH_WINDOW_SECONDS * 1000);
}

/** The time of the newest sample, as the caption says it. */
export function sampledAt(points: readonly HealthPoint[]): string {
  const newest = points.at(-1);
  return newest ? `Sampled at ${new Date(newest.t).toLocaleTimeString([], { hour12: false })}` : WAITING;
}
