/**
 * The microphone's RTP (RFC 7587: one Opus packet per RTP payload, 48 kHz timestamps) put back
 * in order and made continuous: a small jitter buffer (rtp-reorder.ts) reorders and waits a
 * little for late packets; a gap in the timestamps (a lost packet, or the sender's discontinuous
 * transmission) is filled with concealment packets so the decoded audio keeps its real length.
 */
import type { RtpPacket } from 'werift';
import { MAX_OGG_PACKET_BYTES } from './ogg-opus-writer.ts';
import { concealmentPacket, opusPacketSamples } from './opus-toc.ts';
import { createRtpReorder } from './rtp-reorder.ts';

/** How long a missing packet is waited for: speech detection tolerates this much delay. */
const JITTER_MS = 60;
/**
 * Gaps up to this long (48 kHz samples, 1 s) are concealed; a longer one is a new start. So is a
 * step back longer than this: packets leave the jitter buffer in sequence order, so only a sender
 * whose clock began again lower sends them. Taken as audio already played, they were all dropped
 * until the new clock caught up with the old, for up to half the 32-bit range (12 hours).
 */
const MAX_CONCEALED = 48_000;

export interface OpusRtpReceiver {
  push(rtp: RtpPacket): void;
}

export function createOpusRtpReceiver(onPacket: (opus: Buffer, samples: number) => void): OpusRtpReceiver {
  const reorder = createRtpReorder((JITTER_MS * 48_000) / 1000);
  let expected: number | undefined;
  let last: Buffer | undefined;

  const deliver = (rtp: RtpPacket): void => {
    const { payload } = rtp;
    // Opus frames are at most 1,275 bytes: a payload longer than one Ogg page holds is no
    // microphone's packet, and the decoder's Ogg writer would throw on it, losing the packets the
    // jitter buffer released with it. It is taken as lost and concealed like one.
    const samples = payload.length > MAX_OGG_PACKET_BYTES ? 0 : opusPacketSamples(payload);
    if (samples === 0) return;
    const ts = rtp.header.timestamp;
    if (expected !== undefined && last) {
      // Signed distance in the 32-bit timestamp space: a little negative means a packet already played.
      const gap = (ts - expected) | 0;
      if (gap < 0 && gap >= -MAX_CONCEALED) return;
      if (gap > 0 && gap <= MAX_CONCEALED) {
        const filler = concealmentPacket(last);
        const step = opusPacketSamples(filler);
        for (let filled = 0; filled + step <= gap; filled += step) onPacket(filler, step);
      }
    }
    expected = (ts + samples) >>> 0;
    last = payload;
    onPacket(payload, samples);
  };

  return {
    push(rtp) {
      for (const ordered of reorder.push(rtp)) deliver(ordered);
    },
  };
}
