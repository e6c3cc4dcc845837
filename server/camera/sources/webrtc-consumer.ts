/**
 * The cockpit's side of one camera session with webrtcsink: the producer offers, we answer
 * with werift (recvonly H.264; audio, which the daemon also offers, is answered inactive so
 * the robot spends no encoder on it, daemon-api.md §10.8), take remote candidates as they
 * trickle in, and turn the video RTP into access units. Our own candidates travel inside the
 * answer (werift gathers before it resolves), so none are trickled.
 */
import { RTCPeerConnection, useH264, useOPUS, type MediaStreamTrack, type RtpPacket } from 'werift';
import { JitterBufferBase } from 'werift/nonstandard';
import type { Log } from '../../log.ts';
import type { H264AccessUnit } from '../frame.ts';
import { createRtpDepacketizer } from '../h264/rtp-depacketizer.ts';

export interface ConsumerDeps {
  log: Log;
  /** Sends the inner part of a `peer` message (`{sdp}`) to the producer. */
  signal(inner: Record<string, unknown>): void;
  onAccessUnit(au: H264AccessUnit): void;
  /** SPS/PPS the offer carried in sprop-parameter-sets (RFC 6184 §8.1), for keyframes without them. */
  onParameterSets(nals: Buffer[]): void;
  onFailed(reason: string): void;
}

export interface ConsumerSession {
  handlePeer(message: Record<string, unknown>): Promise<void>;
  /** Sends a picture-loss indication, asking the producer for a keyframe. */
  requestKeyframe(): void;
  close(): void;
}

/** How long the jitter buffer waits for a late packet (or its retransmission) before giving up. */
const JITTER_MS = 120;
/** Keyframe requests are repeated at most this often while a decoder waits for one. */
const PLI_INTERVAL_MS = 500;

export function spropParameterSets(sdp: string): Buffer[] {
  const match = /sprop-parameter-sets=([A-Za-z0-9+/=,]+)/.exec(sdp);
  return match?.[1]
    ? match[1]
        .split(',')
        .map((b64) => Buffer.from(b64, 'base64'))
        .filter((b) => b.length > 0)
    : [];
}

export function createConsumerSession(deps: ConsumerDeps): ConsumerSession {
  const pc = new RTCPeerConnection({ codecs: { video: [useH264()], audio: [useOPUS()] } });
  const jitter = new JitterBufferBase(90_000, { latency: JITTER_MS });
  let video: MediaStreamTrack | undefined;
  let closed = false;
  let lastPli = -Infinity;
  const depacketizer = createRtpDepacketizer(() => session.requestKeyframe());

  const onRtp = (rtp: RtpPacket): void => {
    for (const out of jitter.processInput({ rtp })) {
      if (out.isPacketLost) depacketizer.lost();
      if (!out.rtp) continue;
      const au = depacketizer.push({
        payload: out.rtp.payload,
        marker: out.rtp.header.marker,
        timestamp: out.rtp.header.timestamp,
      });
      if (au) deps.onAccessUnit(au);
    }
  };
  pc.onTrack.subscribe((track) => {
    if (track.kind !== 'video' || video) return;
    video = track;
    track.onReceiveRtp.subscribe((rtp) => {
      if (!closed) onRtp(rtp);
    });
  });
  pc.connectionStateChange.subscribe((state) => {
    if (!closed && (state === 'failed' || state === 'closed')) deps.onFailed(`peer connection ${state}`);
  });

  const answer = async (offer: string): Promise<void> => {
    deps.onParameterSets(spropParameterSets(offer));
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    for (const t of pc.getTransceivers()) if (t.kind === 'audio') t.setDirection('inactive');
    await pc.setLocalDescription(await pc.createAnswer());
    deps.signal({ sdp: { type: 'answer', sdp: pc.localDescription?.sdp ?? '' } });
  };

  const session: ConsumerSession = {
    async handlePeer(message) {
      const sdp = message.sdp as { type?: unknown; sdp?: unknown } | undefined;
      const ice = message.ice as { candidate?: unknown; sdpMLineIndex?: unknown } | undefined;
      if (sdp?.type === 'offer' && typeof sdp.sdp === 'string') await answer(sdp.sdp);
      else if (ice && typeof ice.candidate === 'string' && ice.candidate !== '') {
        const sdpMLineIndex = typeof ice.sdpMLineIndex === 'number' ? ice.sdpMLineIndex : 0;
        await pc.addIceCandidate({ candidate: ice.candidate, sdpMLineIndex });
      }
    },
    requestKeyframe() {
      const receiver = pc.getTransceivers().find((t) => t.kind === 'video')?.receiver;
      const now = performance.now();
      if (closed || !receiver || video?.ssrc === undefined || now - lastPli < PLI_INTERVAL_MS) return;
      lastPli = now;
      void receiver.sendRtcpPLI(video.ssrc).catch(() => {});
    },
    close() {
      if (closed) return;
      closed = true;
      void pc.close().catch(() => {});
    },
  };
  return session;
}
