/** Number formats of the connection pill. Fixed decimals so the pill does not change width. */

export function formatHz(hz: number | null | undefined): string {
  if (hz === null || hz === undefined || !Number.isFinite(hz)) return '— Hz';
  return `${Math.max(0, hz).toFixed(1)} Hz`;
}

/** Frame age: milliseconds while fresh, then seconds, then minutes, for a frozen feed. */
export function formatAge(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '— ms';
  const age = Math.max(0, ms);
  if (age < 1000) return `${Math.round(age)} ms`;
  if (age < 60_000) return `${(age / 1000).toFixed(1)} s`;
  return `${Math.floor(age / 60_000)} min`;
}

/** "in 3 s" for a retry countdown; "now" once it is due. */
export function formatCountdown(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds <= 0 ? 'now' : `in ${seconds} s`;
}
