/**
 * Packets out of an Ogg stream (RFC 3533) as it arrives in chunks: the simulated microphone's
 * encoder (ffmpeg, libopus into Ogg) writes pages to a pipe, and webrtcsink sends each Opus
 * packet as one RTP payload. A packet is the bytes of consecutive lacing values up to the first
 * one under 255; it may continue onto the next page. Checksums are not verified: the pages come
 * from a local ffmpeg through a pipe.
 */

export interface OggPacket {
  data: Buffer;
  /** The first packets of a stream are headers (OpusHead, OpusTags), not audio. */
  index: number;
}

export interface OggReader {
  push(chunk: Buffer): void;
}

const HEADER = 27;

export function createOggReader(onPacket: (packet: OggPacket) => void): OggReader {
  let pending: Buffer = Buffer.alloc(0);
  let partial: Buffer[] = [];
  let index = 0;

  const readPage = (): boolean => {
    if (pending.length < HEADER) return false;
    if (pending.toString('latin1', 0, 4) !== 'OggS') {
      // Lost sync (should not happen on a pipe): skip to the next capture pattern.
      const next = pending.indexOf('OggS', 1, 'latin1');
      pending = next < 0 ? Buffer.alloc(0) : pending.subarray(next);
      return next >= 0;
    }
    const segments = pending[26] ?? 0;
    if (pending.length < HEADER + segments) return false;
    const table = pending.subarray(HEADER, HEADER + segments);
    const bodyLength = table.reduce((sum, n) => sum + n, 0);
    if (pending.length < HEADER + segments + bodyLength) return false;
    let at = HEADER + segments;
    for (const lace of table) {
      partial.push(pending.subarray(at, at + lace));
      at += lace;
      if (lace < 255) {
        onPacket({ data: Buffer.concat(partial), index });
        index += 1;
        partial = [];
      }
    }
    pending = pending.subarray(at);
    return true;
  };

  return {
    push(chunk) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (readPage());
    },
  };
}
