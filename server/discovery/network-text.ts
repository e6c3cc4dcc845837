/**
 * Text that arrived from the network (mDNS names and TXT values) or names an owner typed, made
 * safe to store and show: no control or bidirectional-override characters, spaces collapsed,
 * length capped. Markup is left as text: the dashboard renders these values as text only.
 */

/** C0 and C1 controls, DEL, and the bidi overrides/isolates that can disguise a name. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function cleanNetworkText(raw: string, max: number): string {
  return [...raw.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim()].slice(0, max).join('').trim();
}

export function hasUnsafeCharacters(raw: string): boolean {
  return new RegExp(UNSAFE.source).test(raw);
}

/** A DNS-SD instance name is one DNS label: at most 63 bytes. */
export const ROBOT_NAME_MAX = 63;

/**
 * `name` cut, on a character boundary, to one DNS label's 63 bytes of UTF-8. A longer label does
 * not encode: its length byte reads as a pointer or a reserved type, and every receiver drops the
 * whole announcement (63 accented letters are 126 bytes).
 */
export function fitDnsLabel(name: string): string {
  let out = '';
  let bytes = 0;
  for (const ch of name) {
    bytes += Buffer.byteLength(ch);
    if (bytes > ROBOT_NAME_MAX) break;
    out += ch;
  }
  return out.trim();
}

/**
 * The host label a robot name becomes in `<label>.local`: lower-case letters, digits and
 * hyphens only; null when nothing usable is left (a name in another script).
 */
export function localHostLabel(name: string): string | null {
  const label = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return label === '' ? null : label;
}
