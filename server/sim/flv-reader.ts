/**
 * Reads the simulated camera encoder's output: H.264 in FLV. FLV is used instead of a raw
 * Annex-B pipe because Annex-B has no end-of-access-unit marker: the end of frame n is only
 * known when frame n+1 starts, one frame period later. FLV frames every access unit with its
 * length, so each one can be packetised the moment it leaves the encoder.
 */

export interface EncodedAccessUnit {
  /** NAL units without start codes; keyframes start with the SPS and PPS. */
  nals: Buffer[];
  keyframe: boolean;
}

const FLV_HEADER_BYTES = 9 + 4;
const TAG_HEADER_BYTES = 11;
const VIDEO_TAG = 9;
const AVC_CODEC = 7;
const AVC_SEQUENCE_HEADER = 0;
const AVC_NALU = 1;

/** SPS and PPS from an AVCDecoderConfigurationRecord (ISO/IEC 14496-15 §5.2.4.1). */
export function parseAvcConfig(record: Buffer): { sps: Buffer[]; pps: Buffer[]; lengthSize: number } {
  const lengthSize = ((record[4] ?? 3) & 0x03) + 1;
  let at = 5;
  const take = (count: number): Buffer[] => {
    const out: Buffer[] = [];
    for (let i = 0; i < count && at + 2 <= record.length; i += 1) {
      const len = record.readUInt16BE(at);
      out.push(record.subarray(at + 2, at + 2 + len));
      at += 2 + len;
    }
    return out;
  };
  const sps = take((record[at++] ?? 0) & 0x1f);
  const pps = take(record[at++] ?? 0);
  return { sps, pps, lengthSize };
}

/** Splits length-prefixed NAL units (AVCC form). */
export function splitLengthPrefixed(data: Buffer, lengthSize: number): Buffer[] {
  const nals: Buffer[] = [];
  let at = 0;
  while (at + lengthSize <= data.length) {
    const len = data.readUIntBE(at, lengthSize);
    at += lengthSize;
    if (len === 0 || at + len > data.length) break;
    nals.push(data.subarray(at, at + len));
    at += len;
  }
  return nals;
}

export interface FlvReader {
  /** Feeds bytes as they come; calls back once per complete access unit. */
  push(chunk: Buffer): void;
}

export function createFlvReader(onAccessUnit: (au: EncodedAccessUnit) => void): FlvReader {
  let pending: Buffer = Buffer.alloc(0);
  let headerSkipped = false;
  let config: { sps: Buffer[]; pps: Buffer[]; lengthSize: number } | null = null;

  const videoTag = (body: Buffer): void => {
    if (body.length < 5 || ((body[0] ?? 0) & 0x0f) !== AVC_CODEC) return;
    const keyframe = (body[0] ?? 0) >> 4 === 1;
    const payload = body.subarray(5);
    if (body[1] === AVC_SEQUENCE_HEADER) config = parseAvcConfig(payload);
    else if (body[1] === AVC_NALU && config) {
      const nals = splitLengthPrefixed(payload, config.lengthSize);
      // A decoder joining at this keyframe needs the parameter sets in band (RFC 6184 §8.4).
      onAccessUnit({ keyframe, nals: keyframe ? [...config.sps, ...config.pps, ...nals] : nals });
    }
  };

  return {
    push(chunk) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (!headerSkipped) {
        if (pending.length < FLV_HEADER_BYTES) return;
        pending = pending.subarray(FLV_HEADER_BYTES);
        headerSkipped = true;
      }
      while (pending.length >= TAG_HEADER_BYTES) {
        const size = pending.readUIntBE(1, 3);
        const total = TAG_HEADER_BYTES + size + 4;
        if (pending.length < total) return;
        if (pending[0] === VIDEO_TAG) videoTag(pending.subarray(TAG_HEADER_BYTES, TAG_HEADER_BYTES + size));
        pending = pending.subarray(total);
      }
    },
  };
}
