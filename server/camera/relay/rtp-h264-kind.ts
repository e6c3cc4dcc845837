/**
 * What an H.264 RTP payload (RFC 6184) holds, read from its first bytes only: the relay needs
 * to know where a viewer may join or rejoin the stream (the first picture packet of a keyframe),
 * not the pictures themselves. Single NAL units, STAP-A aggregates and FU-A fragments.
 */
import { NAL } from '../h264/nal.ts';

/** key: starts an IDR picture or carries its SPS; delta: starts another picture; more: continues a picture. */
export type PayloadKind = 'key' | 'delta' | 'more' | 'other';

const STAP_A = 24;
const FU_A = 28;

function kindOfNal(type: number): PayloadKind {
  if (type === NAL.IDR || type === NAL.SPS) return 'key';
  if (type >= 1 && type <= 4) return 'delta';
  return 'other';
}

function kindOfAggregate(payload: Buffer): PayloadKind {
  let kind: PayloadKind = 'other';
  for (let at = 1; at + 2 < payload.length; at += 2 + payload.readUInt16BE(at)) {
    const inner = kindOfNal((payload[at + 2] ?? 0) & 0x1f);
    if (inner === 'key') return 'key';
    if (inner === 'delta') kind = 'delta';
  }
  return kind;
}

export function payloadKind(payload: Buffer): PayloadKind {
  const type = (payload[0] ?? 0) & 0x1f;
  if (type === STAP_A) return kindOfAggregate(payload);
  if (type !== FU_A) return kindOfNal(type);
  const fu = payload[1] ?? 0;
  const kind = kindOfNal(fu & 0x1f);
  return (fu & 0x80) === 0 && kind !== 'other' ? 'more' : kind;
}

/**
 * Follows the stream packet by packet and says where a keyframe begins: the first picture
 * packet of an access unit (one RTP timestamp) that is an IDR or its SPS. Packets before it
 * in the same unit (a delimiter, an SEI) are not needed to decode it.
 */
export function createKeyframeSpotter(): (timestamp: number, payload: Buffer) => boolean {
  let unit: number | undefined;
  let pictureSeen = false;
  return (timestamp, payload) => {
    if (timestamp !== unit) {
      unit = timestamp;
      pictureSeen = false;
    }
    const kind = payloadKind(payload);
    const starts = kind === 'key' && !pictureSeen;
    if (kind !== 'other') pictureSeen = true;
    return starts;
  };
}
