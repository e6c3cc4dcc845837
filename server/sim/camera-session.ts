/**
 * One consumer's WebRTC session with the simulated camera, producer side, the way webrtcsink
 * runs it: the producer offers (sendonly H.264, packetization-mode=1), trickles its ICE
 * candidates after the offer, and starts its own encoder once the peer connection is up, so
 * the consumer's first frame is a keyframe. A picture-loss indication restarts the encoder,
 * which is how this encoder is made to send a new keyframe.
 */
import { MediaStreamTrack, RTCPeerConnection, useH264, type RTCIceCandidate } from 'werift';
import type { Log } from '../log.ts';
import { startH264Encoder, type H264Encoder } from './camera-encoder.ts';
import type { CameraSensor } from './camera-render.ts';
import { createRtpStream } from './rtp-h264.ts';

export interface SessionDeps {
  sensor: CameraSensor;
  log: Log;
  /** Sends the inner part of a `peer` message, `{sdp}` or `{ice}`, to the consumer. */
  signal(inner: Record<string, unknown>): void;
  /** The session died by itself (connection failed, encoder gone). */
  onFailed(reason: string): void;
}

export interface CameraSession {
  /** Creates and sends the offer, then the candidates. */
  offer(): Promise<void>;
  /** An answer or a remote candidate from the consumer. */
  handlePeer(message: Record<string, unknown>): Promise<void>;
  close(): void;
}

/** Keyframe interval: two seconds at 15 fps. */
const GOP = 30;
const PLI_MIN_INTERVAL_MS = 500;

/** The simulator binds loopback only (ARCHITECTURE.md §1): only 127.0.0.1 candidates are offered. */
function isLoopback(candidate: RTCIceCandidate): boolean {
  return / 127\.0\.0\.1 /.test(candidate.candidate);
}

function withoutCandidates(sdp: string): string {
  return sdp
    .split('\r\n')
    .filter((line) => !line.startsWith('a=candidate:') && line !== 'a=end-of-candidates')
    .join('\r\n');
}

export function createCameraSession(deps: SessionDeps): CameraSession {
  const pc = new RTCPeerConnection({
    codecs: { video: [useH264()] },
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
    iceUseIpv6: false,
  });
  const track = new MediaStreamTrack({ kind: 'video' });
  const sender = pc.addTransceiver(track, { direction: 'sendonly' }).sender;
  const rtp = createRtpStream();
  let encoder: H264Encoder | undefined;
  let unsubscribe: (() => void) | undefined;
  let offered = false;
  let closed = false;
  let lastPli = 0;
  const early: RTCIceCandidate[] = [];

  const sendCandidate = (c: RTCIceCandidate): void => {
    if (isLoopback(c)) deps.signal({ ice: { candidate: c.candidate, sdpMLineIndex: c.sdpMLineIndex ?? 0 } });
  };
  const startEncoder = (): void => {
    encoder?.close();
    encoder = startH264Encoder({
      width: deps.sensor.width,
      height: deps.sensor.height,
      fps: deps.sensor.fps,
      gop: GOP,
      log: deps.log,
      onAccessUnit: (au) => {
        for (const packet of rtp.packets(au.nals, performance.now())) track.writeRtp(packet);
      },
      onExit: (reason) => deps.onFailed(reason),
    });
    unsubscribe ??= deps.sensor.subscribe((rgba) => encoder?.encode(rgba));
  };

  pc.onIceCandidate.subscribe((c) => {
    if (!c) return;
    if (offered) sendCandidate(c);
    else early.push(c);
  });
  pc.connectionStateChange.subscribe((state) => {
    if (closed) return;
    if (state === 'connected' && !encoder) startEncoder();
    if (state === 'failed' || state === 'closed') deps.onFailed(`peer connection ${state}`);
  });
  sender.onPictureLossIndication.subscribe(() => {
    const now = performance.now();
    if (closed || !encoder || now - lastPli < PLI_MIN_INTERVAL_MS) return;
    lastPli = now;
    startEncoder();
  });

  return {
    async offer() {
      await pc.setLocalDescription(await pc.createOffer());
      const sdp = pc.localDescription?.sdp ?? '';
      deps.signal({ sdp: { type: 'offer', sdp: withoutCandidates(sdp) } });
      offered = true;
      for (const c of early.splice(0)) sendCandidate(c);
    },
    async handlePeer(message) {
      const sdp = message.sdp as { type?: unknown; sdp?: unknown } | undefined;
      const ice = message.ice as { candidate?: unknown; sdpMLineIndex?: unknown } | undefined;
      if (sdp?.type === 'answer' && typeof sdp.sdp === 'string') {
        await pc.setRemoteDescription({ type: 'answer', sdp: sdp.sdp });
      } else if (ice && typeof ice.candidate === 'string' && ice.candidate !== '') {
        const sdpMLineIndex = typeof ice.sdpMLineIndex === 'number' ? ice.sdpMLineIndex : 0;
        await pc.addIceCandidate({ candidate: ice.candidate, sdpMLineIndex });
      }
    },
    close() {
      if (closed) return;
      closed = true;
      unsubscribe?.();
      encoder?.close();
      track.stop();
      void pc.close().catch(() => {});
    },
  };
}
