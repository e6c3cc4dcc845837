/**
 * The camera's H.264 RTP as it arrives from the daemon's WebRTC session, for the relay that
 * forwards it to browsers without decoding (relay/README-relay.md). Only the WebRTC source has
 * it; a local device or MJPEG source has no RTP to forward.
 */
import type { RtpPacket } from 'werift';

export type { RtpPacket };

/** What the relay sees of the source: its packets, and a way to ask the robot for a keyframe. */
export interface VideoRtp {
  /** Each packet exactly as received (before any jitter buffer); the returned function stops listening. */
  listen(onPacket: (rtp: RtpPacket) => void): () => void;
  /** Sends a picture-loss indication upstream (callers coalesce: see relay/keyframe-requests.ts). */
  requestKeyframe(): void;
}

/** The source's side: packets go in through `push`, keyframe requests go out through `onKeyframe`. */
export interface VideoRtpTap extends VideoRtp {
  push(rtp: RtpPacket): void;
  readonly listeners: number;
}

export function createVideoRtpTap(onKeyframe: () => void): VideoRtpTap {
  const listeners = new Set<(rtp: RtpPacket) => void>();
  return {
    listen(onPacket) {
      const own = (rtp: RtpPacket): void => onPacket(rtp);
      listeners.add(own);
      return () => listeners.delete(own);
    },
    requestKeyframe: onKeyframe,
    push(rtp) {
      for (const listener of listeners) listener(rtp);
    },
    get listeners() {
      return listeners.size;
    },
  };
}
