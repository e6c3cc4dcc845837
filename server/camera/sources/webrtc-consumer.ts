/**
 * The cockpit's side of one camera session with webrtcsink: the producer offers, we answer
 * with werift (recvonly H.264; the microphone's Opus, which the daemon also offers, recvonly
 * only while someone listens and otherwise inactive, so the robot spends no encoder on it,
 * docs/daemon.md, "Duties of the cockpit"), take remote candidates as they trickle in, and turn the video RTP into
 * access units and the audio RTP into ordered Opus packets. Our own candidates travel inside
 * the answer (werift gathers before it resolves), so none are trickled.
 */
import { RTCPeerConnection, useH264, useOPUS, type MediaStreamTrack, type RtpPacket } from 'werift';
import { JitterBufferBase } from 'werift/nonstandard';
import type { Log } from '../../log.ts';
import type { H264AccessUnit } from '../frame.ts';
import { createRtpDepacketizer } from '../h264/rtp-depacketizer.ts';
import { createOpusRtpReceiver } from '../audio/opus-rtp-receiver.ts';
import { guardPeer } from '../../peer-guard.ts';

export interface ConsumerDeps {
  log: Log;
  /** Sends the inner part of a `peer` message (`{sdp}`) to the producer. */
  signal(inner: Record<string, unknown>): void;
  onAccessUnit(au: H264AccessUnit): void;
  /** Every video RTP packet as it arrives, for the relay (video-rtp.ts). */
  onVideoRtp(rtp: RtpPacket): void;
  /** SPS/PPS the offer carried in sprop-parameter-sets (RFC 6184 §8.1), for keyframes without them. */
  onParameterSets(nals: Buffer[]): void;
  onFailed(reason: string): void;
  /** Answer the audio m-line recvonly (someone listens to the microphone) rather than inactive. */
  audio: boolean;
  /** One Opus packet of the microphone, in order, gaps concealed. */
  onOpus(packet: Buffer, samples: number): void;
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

class Consumer implements ConsumerSession {
  // LAN only: host candidates, no STUN server to ask (an empty list, and guardPeer before
  // each local description: werift falls back to a public server otherwise, and would let a
  // forged DTLS alert end the session, peer-guard.ts).
  private readonly pc = new RTCPeerConnection({ codecs: { video: [useH264()], audio: [useOPUS()] }, iceServers: [] });
  private readonly jitter = new JitterBufferBase(90_000, { latency: JITTER_MS });
  private readonly depacketizer = createRtpDepacketizer(() => this.requestKeyframe());
  private video: MediaStreamTrack | undefined;
  private closed = false;
  private lastPli = -Infinity;

  constructor(private readonly deps: ConsumerDeps) {
    this.pc.onTrack.subscribe((track) => {
      if (track.kind === 'audio' && deps.audio) return this.listenTo(track);
      if (track.kind !== 'video' || this.video) return;
      this.video = track;
      track.onReceiveRtp.subscribe((rtp) => {
        if (!this.closed) this.onRtp(rtp);
      });
    });
    this.pc.connectionStateChange.subscribe((state) => {
      if (!this.closed && (state === 'failed' || state === 'closed')) deps.onFailed(`peer connection ${state}`);
    });
  }

  async handlePeer(message: Record<string, unknown>): Promise<void> {
    const sdp = message.sdp as { type?: unknown; sdp?: unknown } | undefined;
    const ice = message.ice as { candidate?: unknown; sdpMLineIndex?: unknown } | undefined;
    if (sdp?.type === 'offer' && typeof sdp.sdp === 'string') await this.answer(sdp.sdp);
    else if (ice && typeof ice.candidate === 'string' && ice.candidate !== '') {
      const sdpMLineIndex = typeof ice.sdpMLineIndex === 'number' ? ice.sdpMLineIndex : 0;
      await this.pc.addIceCandidate({ candidate: ice.candidate, sdpMLineIndex });
    }
  }

  requestKeyframe(): void {
    const receiver = this.pc.getTransceivers().find((t) => t.kind === 'video')?.receiver;
    const ssrc = this.video?.ssrc;
    const now = performance.now();
    if (this.closed || !receiver || ssrc === undefined || now - this.lastPli < PLI_INTERVAL_MS) return;
    this.lastPli = now;
    void receiver.sendRtcpPLI(ssrc).catch(() => {});
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.pc.close().catch(() => {});
  }

  private async answer(offer: string): Promise<void> {
    this.deps.onParameterSets(spropParameterSets(offer));
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offer });
    const audio = this.deps.audio ? 'recvonly' : 'inactive';
    for (const t of this.pc.getTransceivers()) if (t.kind === 'audio') t.setDirection(audio);
    const answer = await this.pc.createAnswer();
    guardPeer(this.pc);
    await this.pc.setLocalDescription(answer);
    this.deps.signal({ sdp: { type: 'answer', sdp: this.pc.localDescription?.sdp ?? '' } });
  }

  private listenTo(track: MediaStreamTrack): void {
    const receiver = createOpusRtpReceiver((packet, samples) => this.deps.onOpus(packet, samples));
    track.onReceiveRtp.subscribe((rtp) => {
      if (!this.closed) receiver.push(rtp);
    });
  }

  private onRtp(rtp: RtpPacket): void {
    this.deps.onVideoRtp(rtp);
    for (const out of this.jitter.processInput({ rtp })) {
      if (out.isPacketLost) this.depacketizer.lost();
      if (!out.rtp) continue;
      const { payload, header } = out.rtp;
      const au = this.depacketizer.push({ payload, marker: header.marker, timestamp: header.timestamp });
      if (au) this.deps.onAccessUnit(au);
    }
  }
}

export function createConsumerSession(deps: ConsumerDeps): ConsumerSession {
  return new Consumer(deps);
}
