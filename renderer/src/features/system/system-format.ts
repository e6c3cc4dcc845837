/** Figures of the system card. */
import type { Health, ServiceState } from '../../../../server/contract/index.ts';
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

/** The daemon's own control-loop rate; the mockup and MuJoCo daemons report none. */
export function formatLoopHz(hz: number | null | undefined): string {
  return hz === null || hz === undefined || !Number.isFinite(hz) ? 'not reported' : `${hz.toFixed(1)} Hz`;
}

/** Version-awareness lines of the system card, from the health frame: the range, a warning, what is missing. */
export function versionFacts(check: Health['daemon']['version_check'] | undefined): { label: string; value: string }[] {
  if (!check) return [];
  const facts = [{ label: 'Tested daemons', value: `${check.tested.min} – ${check.tested.max}` }];
  if (check.warning) facts.push({ label: 'Version warning', value: check.warning });
  if (check.missing.length > 0) facts.push({ label: 'Daemon lacks', value: check.missing.join('; ') });
  return facts;
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
