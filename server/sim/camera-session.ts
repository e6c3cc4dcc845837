/**
 * One consumer's WebRTC session with the simulated camera, producer side, the way webrtcsink
 * runs it: the producer offers (sendonly H.264, packetization-mode=1, and the microphone's
 * Opus, camera-session-audio.ts), trickles its ICE
 * candidates after the offer, and starts its own encoder once the peer connection is up, so
 * the consumer's first frame is a keyframe. A picture-loss indication restarts the encoder,
 * which is how this encoder is made to send a new keyframe.
 */
import { MediaStreamTrack, RTCPeerConnection, useH264, useOPUS, type RTCIceCandidate } from 'werift';
import { guardPeer } from '../peer-guard.ts';
import type { Log } from '../log.ts';
import { addSessionAudio, type SessionAudio } from './camera-session-audio.ts';
import { startH264Encoder, type H264Encoder } from './camera-encoder.ts';
import type { CameraSensor } from './camera-render.ts';
import type { SimMicrophone } from './microphone.ts';
import { createRtpStream } from './rtp-h264.ts';

export interface SessionDeps {
  sensor: CameraSensor;
  microphone: SimMicrophone;
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
  /** The consumer's answer took the microphone, so an Opus encoder runs for this session. */
  readonly audio: boolean;
  close(): void;
}

/** Keyframe interval: two seconds at 15 fps. */
const GOP = 30;
const PLI_MIN_INTERVAL_MS = 500;

/** The simulator binds loopback only (docs/architecture.md, "Processes and data flow"): only 127.0.0.1 candidates are offered. */
function isLoopback(candidate: RTCIceCandidate): boolean {
  return / 127\.0\.0\.1 /.test(candidate.candidate);
}

function withoutCandidates(sdp: string): string {
  return sdp
    .split('\r\n')
    .filter((line) => !line.startsWith('a=candidate:') && line !== 'a=end-of-candidates')
    .join('\r\n');
}

class ProducerSession implements CameraSession {
  private readonly pc = new RTCPeerConnection({
    // The daemon's Opus carries in-band FEC (docs/daemon.md, "Media").
    codecs: { video: [useH264()], audio: [useOPUS({ parameters: 'minptime=10;useinbandfec=1' })] },
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
    iceUseIpv6: false,
  });
  private readonly track = new MediaStreamTrack({ kind: 'video' });
  private readonly rtp = createRtpStream();
  private readonly microphone: SessionAudio;
  private encoder: H264Encoder | undefined;
  private unsubscribe: (() => void) | undefined;
  private offered = false;
  private closed = false;
  private lastPli = 0;
  /** Candidates gathered before the offer went out; trickled right after it. */
  private readonly early: RTCIceCandidate[] = [];

  constructor(private readonly deps: SessionDeps) {
    const sender = this.pc.addTransceiver(this.track, { direction: 'sendonly' }).sender;
    this.microphone = addSessionAudio(this.pc, deps);
    this.pc.onIceCandidate.subscribe((c) => {
      if (!c) return;
      if (this.offered) this.sendCandidate(c);
      else this.early.push(c);
    });
    this.pc.connectionStateChange.subscribe((state) => {
      if (this.closed) return;
      if (state === 'connected' && !this.encoder) this.startEncoder();
      if (state === 'connected') this.microphone.connected();
      if (state === 'failed' || state === 'closed') deps.onFailed(`peer connection ${state}`);
    });
    sender.onPictureLossIndication.subscribe(() => this.onPictureLoss());
  }

  async offer(): Promise<void> {
    const offer = await this.pc.createOffer();
    guardPeer(this.pc); // no public STUN server, no forged DTLS alert (peer-guard.ts)
    await this.pc.setLocalDescription(offer);
    const sdp = this.pc.localDescription?.sdp ?? '';
    this.deps.signal({ sdp: { type: 'offer', sdp: withoutCandidates(sdp) } });
    this.offered = true;
    for (const c of this.early.splice(0)) this.sendCandidate(c);
  }

  async handlePeer(message: Record<string, unknown>): Promise<void> {
    const sdp = message.sdp as { type?: unknown; sdp?: unknown } | undefined;
    const ice = message.ice as { candidate?: unknown; sdpMLineIndex?: unknown } | undefined;
    if (sdp?.type === 'answer' && typeof sdp.sdp === 'string') {
      this.microphone.answered(sdp.sdp);
      await this.pc.setRemoteDescription({ type: 'answer', sdp: sdp.sdp });
    } else if (ice && typeof ice.candidate === 'string' && ice.candidate !== '') {
      const sdpMLineIndex = typeof ice.sdpMLineIndex === 'number' ? ice.sdpMLineIndex : 0;
      await this.pc.addIceCandidate({ candidate: ice.candidate, sdpMLineIndex });
    }
  }

  get audio(): boolean {
    return this.microphone.accepted;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.microphone.close();
    this.unsubscribe?.();
    this.encoder?.close();
    this.track.stop();
    void this.pc.close().catch(() => {});
  }

  private sendCandidate(c: RTCIceCandidate): void {
    if (isLoopback(c)) this.deps.signal({ ice: { candidate: c.candidate, sdpMLineIndex: c.sdpMLineIndex ?? 0 } });
  }

  private startEncoder(): void {
    const { sensor, log } = this.deps;
    this.encoder?.close();
    this.encoder = startH264Encoder({
      width: sensor.width,
      height: sensor.height,
      fps: sensor.fps,
      gop: GOP,
      log,
      onAccessUnit: (au) => {
        for (const packet of this.rtp.packets(au.nals, performance.now())) this.track.writeRtp(packet);
      },
      onExit: (reason) => this.deps.onFailed(reason),
    });
    this.unsubscribe ??= sensor.subscribe((rgba) => this.encoder?.encode(rgba));
  }

  private onPictureLoss(): void {
    const now = performance.now();
    if (this.closed || !this.encoder || now - this.lastPli < PLI_MIN_INTERVAL_MS) return;
    this.lastPli = now;
    this.startEncoder();
  }
}

export function createCameraSession(deps: SessionDeps): CameraSession {
  return new ProducerSession(deps);
}
