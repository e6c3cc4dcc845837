/** Words and tones of the self-test card. */
import type { CheckOutcome, SelfTestResult } from '../../../../server/contract/index.ts';
import type { Tone } from '../../lib/ui/tone.ts';

export const OUTCOME: Readonly<Record<CheckOutcome, { label: string; tone: Tone }>> = Object.freeze({
  ok: { label: 'OK', tone: 'ok' },
  warn: { label: 'Warning', tone: 'warn' },
  fail: { label: 'Failed', tone: 'bad' },
  skipped: { label: 'Skipped', tone: 'idle' },
});

export function summary(result: SelfTestResult): string {
  const count = (o: CheckOutcome) => result.checks.filter((c) => c.outcome === o).length;
  const fail = count('fail');
  const warn = count('warn');
  if (fail + warn === 0) return `All ${result.checks.length - count('skipped')} checks passed.`;
  return [fail ? `${fail} failed` : '', warn ? `${warn} with a warning` : ''].filter(Boolean).join(', ') + '.';
}

/** The microphone meter's bars: 0..1 on a −80..0 dBFS scale. */
export function meterBars(meter: unknown): number[] {
  if (!Array.isArray(meter)) return [];
  return meter
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
    .map((rms) => (rms <= 0 ? 0 : Math.min(1, Math.max(0, (20 * Math.log10(rms) + 80) / 80))));
}
