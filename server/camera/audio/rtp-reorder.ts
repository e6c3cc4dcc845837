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

/**
 * A packet further behind than this is no late packet but a sender numbering afresh (RFC 3550
 * A.1's MAX_MISORDER): two such in sequence start the order again from them. Taken as late, every
 * packet of a sender whose numbers began again lower was dropped until they caught up, up to
 * 32,767 packets (11 minutes of 20 ms audio).
 */
const RESTART_BEHIND = 100;

/** `latency` in RTP clock units (e.g. 60 ms at 48 kHz = 2880). */
export function createRtpReorder(latency: number, capacity = 64): RtpReorder {
  const waiting = new Map<number, RtpPacket>();
  let next: number | undefined;
  /** The last packet that came far behind: if its successor follows, the sender has restarted. */
  let stray: RtpPacket | undefined;

  const drain = (out: RtpPacket[]): void => {
    for (let rtp = next === undefined ? undefined : waiting.get(next); rtp; rtp = waiting.get(next ?? -1)) {
      waiting.delete(rtp.header.sequenceNumber);
      out.push(rtp);
      next = (rtp.header.sequenceNumber + 1) & 0xffff;
    }
  };

  /** What is held, oldest first. */
  const held = (): RtpPacket[] =>
    [...waiting.values()].sort(
      (a, b) => seqAhead(a.header.sequenceNumber, next ?? 0) - seqAhead(b.header.sequenceNumber, next ?? 0),
    );

  return {
    push(rtp) {
      const seq = rtp.header.sequenceNumber;
      next ??= seq;
      const out: RtpPacket[] = [];
      const behind = -seqAhead(seq, next);
      if (behind > RESTART_BEHIND) {
        const first = stray;
        if (first === undefined || seq !== ((first.header.sequenceNumber + 1) & 0xffff)) {
          stray = rtp;
          return [];
        }
        // What the old numbering still held leaves first, whatever it was missing.
        stray = undefined;
        out.push(...held());
        waiting.clear();
        next = first.header.sequenceNumber;
        waiting.set(next, first);
      } else if (behind > 0 || waiting.has(seq)) {
        // Late (already given up on) or a duplicate.
        return [];
      }
      waiting.set(seq, rtp);
      drain(out);
      if (waiting.size === 0) return out;
      const order = held();
      const oldest = order[0]!;
      const newest = order[order.length - 1]!;
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
