/** The few colours that carry meaning on the dashboard; every status picks one of these tones. */
export type Tone = 'ok' | 'warn' | 'bad' | 'idle';

const TONE_COLOR: Readonly<Record<Tone, string>> = Object.freeze({
  ok: 'var(--ok)',
  warn: 'var(--warn)',
  bad: 'var(--bad)',
  idle: 'var(--idle)',
});

export function toneColor(tone: Tone): string {
  return TONE_COLOR[tone];
}
