/**
 * A minimal CBOR encoder (RFC 8949) for the software authenticator: unsigned and negative
 * integers, byte strings, text strings, arrays and maps, which is all an attestation object
 * with a COSE key needs. Maps keep insertion order; no tags, floats or indefinite lengths.
 */

export type CborValue = number | string | Uint8Array | CborValue[] | CborMap;
/** A CBOR map as entries, so integer and text keys can be mixed as COSE requires. */
export class CborMap {
  constructor(readonly entries: ReadonlyArray<readonly [CborValue, CborValue]>) {}
}

function head(major: number, length: number): Uint8Array {
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`cbor: bad length ${length}`);
  const m = major << 5;
  if (length < 24) return Uint8Array.of(m | length);
  if (length < 0x100) return Uint8Array.of(m | 24, length);
  if (length < 0x10000) return Uint8Array.of(m | 25, length >> 8, length & 0xff);
  if (length < 0x100000000) {
    const out = new Uint8Array(5);
    out[0] = m | 26;
    new DataView(out.buffer).setUint32(1, length);
    return out;
  }
  const out = new Uint8Array(9);
  out[0] = m | 27;
  new DataView(out.buffer).setBigUint64(1, BigInt(length));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Encodes one value. Integers only: a fractional number is refused rather than mis-encoded. */
export function encodeCbor(value: CborValue): Uint8Array {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`cbor: only safe integers, got ${value}`);
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = new TextEncoder().encode(value);
    return concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return concat([head(2, value.length), value]);
  if (Array.isArray(value)) return concat([head(4, value.length), ...value.map(encodeCbor)]);
  return concat([head(5, value.entries.length), ...value.entries.flatMap(([k, v]) => [encodeCbor(k), encodeCbor(v)])]);
}
