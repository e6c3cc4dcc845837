/**
 * The relay's WebRTC peer connection to one browser (werift): the cockpit offers one sendonly
 * H.264 track, the browser answers. LAN only: no STUN or TURN server is configured, so only
 * host candidates are offered (and they travel inside the offer, which werift resolves after
 * gathering); a browser's own candidates, trickled or mDNS-hidden, are learned from its
 * connectivity checks. Each packet is forwarded with the robot's payload byte for byte; only
 * the RTP header is the viewer's own (its SSRC, payload type and extensions), and when the
 * robot's stream restarts (new SSRC) the sequence and timestamp continue where they were.
 * werift would still ask a public STUN server, and end the session on a forged DTLS alert;
 * peer-guard.ts undoes both.
 */
import { RTCPeerConnection, RtpHeader, RtpPacket, useH264, type RTCRtpSender } from 'werift';
import { guardPeer } from '../../peer-guard.ts';
import { isLanCandidate } from './lan-candidate.ts';
import type { RelayPacket } from './viewer-queue.ts';

export interface RelayPeerEvents {
  /** The browser lost a picture and asks for a keyframe. */
  pictureLoss(): void;
  /** The browser said something (RTCP): it is still there. */
  heard(): void;
  connected(): void;
  /** The connection failed or closed on the network side. */
  gone(reason: string): void;
}

/** Open werift peer connections of the relay in this process, for leak checks. */
let openPeers = 0;
export function openRelayPeers(): number {
  return openPeers;
}

export class RelayPeer {
  private readonly pc: RTCPeerConnection;
  private readonly sender: RTCRtpSender;
  private upstreamSsrc: number | undefined;
  private closed = false;
  private listening = false;

  constructor(
    private readonly events: RelayPeerEvents,
    hostAddresses: readonly string[] = ['127.0.0.1'],
  ) {
    this.pc = new RTCPeerConnection({
      codecs: { video: [useH264()] },
      iceServers: [],
      // Same-host browsers (the desktop window) may only reach the loopback address.
      iceAdditionalHostAddresses: [...hostAddresses],
    });
    openPeers += 1;
    this.sender = this.pc.addTransceiver('video', { direction: 'sendonly' }).sender;
    this.sender.onPictureLossIndication.subscribe(() => events.pictureLoss());
    this.pc.connectionStateChange.subscribe((state) => {
      if (this.closed) return;
      if (state === 'connected') {
        this.listen();
        events.connected();
      }
      if (state === 'failed' || state === 'closed') events.gone(`peer connection ${state}`);
    });
  }

  async offer(): Promise<string> {
    const offer = await this.pc.createOffer();
    guardPeer(this.pc);
    await this.pc.setLocalDescription(offer);
    return this.pc.localDescription?.sdp ?? '';
  }

  async answer(sdp: string): Promise<void> {
    await this.pc.setRemoteDescription({ type: 'answer', sdp });
  }

  async candidate(candidate: string, sdpMid: string | undefined, sdpMLineIndex: number | undefined): Promise<void> {
    if (!isLanCandidate(candidate)) return;
    await this.pc.addIceCandidate({ candidate, ...(sdpMid !== undefined ? { sdpMid } : {}), sdpMLineIndex: sdpMLineIndex ?? 0 });
  }

  send(packet: RelayPacket): Promise<void> {
    if (this.closed) return Promise.reject(new Error('viewer closed'));
    const h = packet.rtp.header;
    // The robot's stream restarted (renegotiated session): continue this viewer's numbering.
    if (this.upstreamSsrc !== undefined && this.upstreamSsrc !== h.ssrc) {
      this.sender.replaceRTP({ sequenceNumber: h.sequenceNumber, timestamp: h.timestamp }, true);
    }
    this.upstreamSsrc = h.ssrc;
    // A header of its own: the sender rewrites SSRC, payload type and extensions in place.
    const header = new RtpHeader({
      marker: h.marker,
      payloadType: h.payloadType,
      sequenceNumber: h.sequenceNumber,
      timestamp: h.timestamp,
      ssrc: h.ssrc,
    });
    return this.sender.sendRtp(new RtpPacket(header, packet.rtp.payload));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    openPeers -= 1;
    void this.pc.close().catch(() => {});
  }

  /** RTCP from the browser (receiver reports about every second) proves it is still there. */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    for (const transport of this.pc.dtlsTransports) transport.onRtcp.subscribe(() => this.events.heard());
  }
}
