import { isoCBOR } from '@simplewebauthn/server/helpers';
import { describe, expect, it } from 'vitest';
import { CborMap, encodeCbor } from './cbor.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('encodeCbor', () => {
  it('matches the RFC 8949 Appendix A examples for the types it supports', () => {
    expect(hex(encodeCbor(0))).toBe('00');
    expect(hex(encodeCbor(23))).toBe('17');
    expect(hex(encodeCbor(24))).toBe('1818');
    expect(hex(encodeCbor(1000))).toBe('1903e8');
    expect(hex(encodeCbor(1000000))).toBe('1a000f4240');
    expect(hex(encodeCbor(1000000000000))).toBe('1b000000e8d4a51000');
    expect(hex(encodeCbor(-1))).toBe('20');
    expect(hex(encodeCbor(-100))).toBe('3863');
    expect(hex(encodeCbor(-1000))).toBe('3903e7');
    expect(hex(encodeCbor(Uint8Array.of(1, 2, 3, 4)))).toBe('4401020304');
    expect(hex(encodeCbor(''))).toBe('60');
    expect(hex(encodeCbor('IETF'))).toBe('6449455446');
    expect(hex(encodeCbor('\u00fc'))).toBe('62c3bc');
    expect(hex(encodeCbor([1, [2, 3], [4, 5]]))).toBe('8301820203820405');
    expect(
      hex(
        encodeCbor(
          new CborMap([
            [1, 2],
            [3, 4],
          ]),
        ),
      ),
    ).toBe('a201020304');
    expect(
      hex(
        encodeCbor(
          new CborMap([
            ['a', 1],
            ['b', [2, 3]],
          ]),
        ),
      ),
    ).toBe('a26161016162820203');
  });

  it('refuses numbers it cannot encode exactly', () => {
    expect(() => encodeCbor(1.5)).toThrow(RangeError);
    expect(() => encodeCbor(2 ** 60)).toThrow(RangeError);
  });

  it('round-trips through the decoder the WebAuthn library uses', () => {
    const value = new CborMap([
      ['fmt', 'none'],
      ['attStmt', new CborMap([])],
      ['authData', new Uint8Array(300)],
    ]);
    const decoded = isoCBOR.decodeFirst<Map<string, unknown>>(new Uint8Array(encodeCbor(value)));
    expect(decoded.get('fmt')).toBe('none');
    expect((decoded.get('attStmt') as Map<unknown, unknown>).size).toBe(0);
    expect((decoded.get('authData') as Uint8Array).length).toBe(300);
  });
});
