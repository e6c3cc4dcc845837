/**
 * A small jitter buffer for the microphone's RTP: packets leave in sequence order; a missing
 * one is waited for until packets `latency` newer (by RTP timestamp) have arrived, then given
 * up, and everything buffered after it leaves. werift's JitterBufferBase is not used here: when
 * it gives up on a packet it also drops the packets buffered behind it, which for audio would
 * turn one lost packet into several.
 */
import type { RtpPacket } from 'werift';

/** How far a sequence number is ahead of another, in the 16-bit wrap-around space (−32768..32767). */
function seqAhead(seq: number, of: number): number {
  return ((seq - of + 0x8000) & 0xffff) - 0x8000;
}

export interface RtpReorder {
  /** The packets that may leave now, in order. */
  push(rtp: RtpPacket): RtpPacket[];
}

/** `latency` in RTP clock units (e.g. 60 ms at 48 kHz = 2880). */
export function createRtpReorder(latency: number, capacity = 64): RtpReorder {
  const waiting = new Map<number, RtpPacket>();
  let next: number | undefined;

  const drain = (out: RtpPacket[]): void => {
    for (let rtp = next === undefined ? undefined : waiting.get(next); rtp; rtp = waiting.get(next ?? -1)) {
      waiting.delete(rtp.header.sequenceNumber);
      out.push(rtp);
      next = (rtp.header.sequenceNumber + 1) & 0xffff;
    }
  };

  return {
    push(rtp) {
      const seq = rtp.header.sequenceNumber;
      next ??= seq;
      // Late (already given up on) or a duplicate.
      if (seqAhead(seq, next) < 0 || waiting.has(seq)) return [];
      waiting.set(seq, rtp);
      const out: RtpPacket[] = [];
      drain(out);
      if (waiting.size === 0) return out;
      const held = [...waiting.values()].sort(
        (a, b) => seqAhead(a.header.sequenceNumber, next ?? 0) - seqAhead(b.header.sequenceNumber, next ?? 0),
      );
      const oldest = held[0]!;
      const newest = held[held.length - 1]!;
      const span = (newest.header.timestamp - oldest.header.timestamp) >>> 0;
      if (span >= latency || waiting.size > capacity) {
        // Give up on what is missing before the oldest packet held.
        next = oldest.header.sequenceNumber;
        drain(out);
      }
      return out;
    },
  };
}
