/**
 * Text that arrived from the network (mDNS names and TXT values) or names an owner typed, made
 * safe to store and show: no control, bidirectional-override or invisible characters, spaces
 * collapsed, length capped. Markup is left as text: the dashboard renders these values as text only.
 */

/** C0 and C1 controls, DEL, and the bidi overrides/isolates that can disguise a name. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Characters that show nothing: the format characters (zero-width space and joiners, word joiner,
 * soft hyphen, the Arabic letter mark, tags...), the variation selectors, the grapheme joiner, and
 * the blanks that are not spaces (Hangul fillers, Khmer vowels inherent, the braille blank). Inside
 * a name they make a lookalike ("Kit\u200bchen" shows as "Kitchen"); each becomes a space, so the
 * difference shows.
 */
// eslint-disable-next-line no-misleading-character-class -- the marks are matched alone, which is the point
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;

/**
 * Where one of them draws something and is kept: a joiner inside an emoji sequence (a family, a
 * profession), the emoji presentation selector after an emoji or a keycap's digit, the tags of a
 * subdivision flag, and the joiners of the scripts that write with them, where they change the
 * letters' shapes (Arabic, Syriac, N'Ko, Mongolian, the Indic scripts).
 */
const DRAWS =
  /(?<=[\p{Extended_Pictographic}\u{1f3fb}-\u{1f3ff}]\ufe0f?)\u200d(?=\p{Extended_Pictographic})|(?<=[\p{Emoji}])\ufe0f|(?<=\u{1f3f4}[\u{e0020}-\u{e007e}]{0,31})[\u{e0020}-\u{e007f}]|(?<=[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mongolian}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}]\p{M}{0,3})[\u200c\u200d]/uy;

function draws(text: string, at: number): boolean {
  DRAWS.lastIndex = at;
  return DRAWS.test(text);
}

export function cleanNetworkText(raw: string, max: number): string {
  const visible = raw.replace(INVISIBLE, (ch: string, at: number, text: string) => (draws(text, at) ? ch : ' '));
  return [...visible.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim()].slice(0, max).join('').trim();
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
