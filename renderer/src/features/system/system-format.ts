/** Figures of the system card. */
import type { ServiceState } from '../../../../server/contract/index.ts';
import type { Tone } from '../../lib/ui/tone.ts';

export function formatUptime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.floor(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

export function formatMemory(mib: number | null | undefined): string {
  return mib === null || mib === undefined || !Number.isFinite(mib) ? '—' : `${Math.round(mib)} MiB`;
}

export function formatLoad(load: number | null | undefined): string {
  return load === null || load === undefined || !Number.isFinite(load) ? '—' : load.toFixed(2);
}

export interface ServiceRow {
  name: string;
  state: ServiceState['state'];
  detail: string | null;
  tone: Tone;
}

const SERVICE_TONE: Readonly<Record<ServiceState['state'], Tone>> = Object.freeze({
  running: 'ok',
  paused: 'warn',
  stopped: 'bad',
  off: 'idle',
});

/** Services in a stable, alphabetical order so rows do not swap places between frames. */
export function serviceRows(services: Record<string, ServiceState> | null | undefined): ServiceRow[] {
  return Object.entries(services ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, s]) => ({ name, state: s.state, detail: s.detail ?? null, tone: SERVICE_TONE[s.state] ?? 'idle' }));
}
