/**
 * One signalling connection to webrtcsink, keeping ONE camera session open whenever the
 * producer exists (docs/daemon.md, "Media"; gst-plugins-rs signalling protocol):
 * `list` → pick the producer → `startSession` → `sessionStarted` → answer the `peer` offer,
 * add the trickled `peer` candidates. As a listener it hears `peerStatusChanged` when the
 * producer comes back after an outage and starts a session at once; after `endSession` (or a
 * failed connection) it asks for the producers again. Whether the session carries the
 * microphone is fixed by the answer, so changing it ends the session and starts the next one
 * (never two at once): the camera pauses for about a quarter of a second.
 */
import type { Log } from '../../log.ts';
import type { MicrophoneTap } from '../audio/microphone-tap.ts';
import type { H264FrameMaker } from '../h264/frame-maker.ts';
import type { VideoRtpTap } from '../video-rtp.ts';
import type { SignallingClient, SignallingMessage } from './signalling-client.ts';
import { createConsumerSession, type ConsumerSession } from './webrtc-consumer.ts';

/** After a session ends, wait this long before asking for the producers again. */
const RELIST_MS = 250;

/** The producer to watch: the one whose meta name matches, else the only one there is. */
export function pickProducer(producers: unknown, name: string): string | undefined {
  if (!Array.isArray(producers)) return undefined;
  const valid = producers.filter((p): p is { id: string; meta?: { name?: unknown } } => typeof p?.id === 'string');
  return (valid.find((p) => p.meta?.name === name) ?? (valid.length === 1 ? valid[0] : undefined))?.id;
}

export class CameraSessionKeeper {
  private session: { id: string; consumer: ConsumerSession; audio: boolean } | undefined;
  /** startSession sent, sessionStarted not back yet: one request at a time, or the robot runs two sessions. */
  private requesting = false;
  private relistTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly client: SignallingClient,
    private readonly frames: H264FrameMaker,
    private readonly microphone: MicrophoneTap,
    private readonly video: VideoRtpTap,
    private readonly producerName: string,
    private readonly log: Log,
  ) {}

  begin(): void {
    this.client.send({ type: 'setPeerStatus', roles: ['listener'], meta: { name: 'robot-cockpit' } });
    this.client.send({ type: 'list' });
  }

  get active(): boolean {
    return !this.stopped;
  }

  requestKeyframe(): void {
    this.session?.consumer.requestKeyframe();
  }

  /** The microphone is wanted (or not any more): a running session that differs is replaced. */
  audioChanged(): void {
    const session = this.session;
    if (this.stopped || !session || session.audio === this.microphone.wanted) return;
    this.log.info('renegotiating the camera session for the microphone', {
      audio: this.microphone.wanted ? 'recvonly' : 'inactive',
    });
    // endSession goes out first on the same socket, so the producer has ended the old session
    // before it hears of the next: at most one runs at any time.
    this.endSession(true);
    this.client.send({ type: 'list' });
  }

  onMessage(m: SignallingMessage): void {
    if (this.stopped) return;
    const sessionId = typeof m.sessionId === 'string' ? m.sessionId : '';
    if (m.type === 'list') this.startSession(pickProducer(m.producers, this.producerName));
    else if (m.type === 'peerStatusChanged') this.onPeerStatus(m);
    else if (m.type === 'sessionStarted') this.onSessionStarted(sessionId);
    else if (m.type === 'peer' && this.session?.id === sessionId) this.onPeer(m);
    else if (m.type === 'endSession' && this.session?.id === sessionId) {
      this.endSession(false);
      this.relistSoon();
    } else if (m.type === 'error') {
      this.log.debug('signalling error', { details: m.details });
      this.requesting = false;
      if (!this.session) this.relistSoon();
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.relistTimer);
    this.endSession(true);
  }

  private onPeerStatus(m: SignallingMessage): void {
    const producing = Array.isArray(m.roles) && m.roles.includes('producer');
    const named = (m.meta as { name?: unknown } | null)?.name === this.producerName;
    if (producing && named && typeof m.peerId === 'string') this.startSession(m.peerId);
  }

  private startSession(producerId: string | undefined): void {
    if (this.session || this.requesting || !producerId) return;
    this.requesting = true;
    this.client.send({ type: 'startSession', peerId: producerId });
  }

  private onSessionStarted(sessionId: string): void {
    this.requesting = false;
    if (!sessionId) return;
    if (this.session) {
      this.client.send({ type: 'endSession', sessionId });
      return;
    }
    const audio = this.microphone.wanted;
    const consumer = createConsumerSession({
      log: this.log,
      audio,
      onOpus: (packet, samples) => this.microphone.opus(packet, samples),
      signal: (inner) => this.client.send({ type: 'peer', sessionId, ...inner }),
      onAccessUnit: (au) => this.frames.accessUnit(au),
      onVideoRtp: (rtp) => this.video.push(rtp),
      onParameterSets: (nals) => this.frames.setParameterSets(nals),
      onFailed: (reason) => this.fail(reason),
    });
    this.session = { id: sessionId, consumer, audio };
  }

  private onPeer(m: SignallingMessage): void {
    this.session?.consumer.handlePeer(m).catch((error: unknown) => this.fail(`bad peer message: ${String(error)}`));
  }

  private fail(reason: string): void {
    this.log.debug('camera session failed', { reason });
    this.endSession(true);
    this.relistSoon();
  }

  private endSession(tell: boolean): void {
    if (!this.session) return;
    if (tell) this.client.send({ type: 'endSession', sessionId: this.session.id });
    this.session.consumer.close();
    this.session = undefined;
  }

  private relistSoon(): void {
    clearTimeout(this.relistTimer);
    this.relistTimer = setTimeout(() => {
      if (!this.stopped && !this.session) this.client.send({ type: 'list' });
    }, RELIST_MS);
  }
}
