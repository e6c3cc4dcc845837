/**
 * A browser stand-in for tests and `npm run bench`: a werift peer connection that answers the
 * relay's offer, receives the H.264 RTP and counts it. It behaves as a browser does on the wire
 * (RTCP receiver reports, picture-loss indications on request).
 */
import { RTCPeerConnection, useH264, type RtpPacket } from 'werift';
import { guardPeer } from '../../../peer-guard.ts';

export interface WeriftViewer {
  /** Answers the relay's offer; resolves with the answer SDP to send back. */
  answer(offer: string): Promise<string>;
  readonly packets: RtpPacket[];
  readonly received: number;
  /** Resolves once the connection is up. */
  connected(): Promise<void>;
  onPacket(listener: (rtp: RtpPacket, at: number) => void): void;
  close(): Promise<void>;
}

/** `keep`: how many packets to keep in `packets` (the rest are only counted). */
export function createWeriftViewer(keep = 0): WeriftViewer {
  const pc = new RTCPeerConnection({ codecs: { video: [useH264()] }, iceServers: [], iceAdditionalHostAddresses: ['127.0.0.1'] });
  const packets: RtpPacket[] = [];
  const listeners: ((rtp: RtpPacket, at: number) => void)[] = [];
  let received = 0;
  pc.onTrack.subscribe((track) => {
    track.onReceiveRtp.subscribe((rtp) => {
      received += 1;
      if (packets.length < keep) packets.push(rtp);
      const at = performance.now();
      for (const listener of listeners) listener(rtp, at);
    });
  });
  const up = new Promise<void>((resolve, reject) => {
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') resolve();
      if (state === 'failed') reject(new Error('viewer connection failed'));
    });
  });
  up.catch(() => undefined);
  return {
    async answer(offer) {
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      const answer = await pc.createAnswer();
      guardPeer(pc);
      await pc.setLocalDescription(answer);
      return pc.localDescription?.sdp ?? '';
    },
    packets,
    get received() {
      return received;
    },
    connected: () => up,
    onPacket: (listener) => void listeners.push(listener),
    close: () => pc.close(),
  };
}
