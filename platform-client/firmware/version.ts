/**
 * Firmware version order: the platform compares versions by their runs of integers
 * (docs/platform.md, "Devices", the 409 downgrade rule), so the device does the same.
 */

/** Negative when `a` is older than `b`, zero when their integer runs are equal, positive when newer. */
export function compareVersions(a: string, b: string): number {
  const ra = (a.match(/\d+/g) ?? []).map(Number);
  const rb = (b.match(/\d+/g) ?? []).map(Number);
  const length = Math.max(ra.length, rb.length);
  for (let i = 0; i < length; i += 1) {
    const diff = (ra[i] ?? 0) - (rb[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
