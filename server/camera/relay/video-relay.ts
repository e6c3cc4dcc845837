/**
 * The WebRTC relay, a selective forwarding unit: the cockpit keeps its ONE WebRTC session to
 * the robot (sources/webrtc-source.ts) and forwards the H.264 RTP it receives, undecoded and
 * unchanged, to every browser over the browser's own peer connection (relay-peer.ts). Nothing
 * here decodes or encodes, so a viewer costs the robot nothing and the cockpit only the sends.
 *
 * - Viewers join at a keyframe; their keyframe requests (joining, falling behind, a browser's
 *   picture-loss indication) reach the robot at most once a second (keyframe-requests.ts).
 * - A viewer that falls behind is dropped to the next keyframe (viewer-queue.ts).
 * - Each viewer is sent what is waiting for it in a turn of its own, one viewer after another.
 *   The packets of a keyframe come together and are all read first; then each viewer gets the
 *   whole picture, its socket writes included, before the next viewer's turn. Sending packet by
 *   packet to everyone would make every viewer wait for the last packet's turn: the same work,
 *   but each picture complete only when all viewers' copies are. The first turn moves on by
 *   one viewer each picture, so no viewer always gets its keyframes last.
 * - A viewer that vanishes (tab killed, Wi-Fi lost) stops sending RTCP; after `silenceMs`
 *   without any it is closed (checked every second). Until it has been heard or sent a packet
 *   (a browser reports only once media flows, and the first keyframe may take a moment), the
 *   limit is `setupMs` from its offer instead.
 * - The raw RTP is watched through the frame hub only while there are viewers, so the relay
 *   keeps the upstream client open exactly as long as it needs it.
 */
import type { Log } from '../../log.ts';
import { realSchedule, type Schedule } from '../../perception/schedule.ts';
import type { FrameHub, VideoWatch } from '../frame-hub.ts';
import type { RtpPacket } from '../video-rtp.ts';
import { createKeyframeRequests, type KeyframeRequests } from './keyframe-requests.ts';
import { createLatencyHistogram, type LatencyCounts } from './latency-histogram.ts';
import { createLatencyWindow, type LatencySummary } from './latency-window.ts';
import { RelayPeer, type RelayPeerEvents } from './relay-peer.ts';
import { createKeyframeSpotter } from './rtp-h264-kind.ts';
import { ViewerQueue, type RelayPacket } from './viewer-queue.ts';

export interface VideoRelayOptions {
  hub: FrameHub;
  log: Log;
  now?: () => number;
  schedule?: Schedule;
  /** Viewers at once (default 128); one more is refused with VIDEO_BUSY. */
  maxViewers?: number;
  /** A connected viewer silent this long is closed (default 8 s). */
  silenceMs?: number;
  /** A viewer neither heard nor sent media this long after its offer is closed (default 15 s). */
  setupMs?: number;
  /** Extra host candidates to offer (default loopback, for a browser on the same host). */
  hostAddresses?: readonly string[];
  /** How a viewer's peer is made (tests give a fake; default werift). */
  createPeer?: (events: RelayPeerEvents) => ViewerPeer;
  /**
   * Schedules a viewer's sending turn (default setImmediate: after the packets already waiting
   * in the socket are read, and with Node's own queued work, such as the socket writes of the
   * turn before, run in between).
   */
  defer?: (turn: () => void) => void;
}

/** What the relay needs of a viewer's peer connection (RelayPeer is the real one). */
export type ViewerPeer = Pick<RelayPeer, 'offer' | 'answer' | 'candidate' | 'send' | 'close'>;

export interface RelayViewer {
  readonly id: number;
  /** The SDP offer for the browser; resolves after host candidates are gathered. */
  offer(): Promise<string>;
  answer(sdp: string): Promise<void>;
  candidate(candidate: string, sdpMid?: string, sdpMLineIndex?: number): Promise<void>;
  close(): void;
}

export type RelayOpen =
  | { ok: true; viewer: RelayViewer }
  | { ok: false; code: 'VIDEO_UNAVAILABLE' | 'VIDEO_BUSY'; error: string };

export interface RelayStats {
  viewers: number;
  /** Viewers connected and receiving. */
  connected: number;
  /** 1 while the relay watches the robot's one session, else 0 (never more: one hub, one source). */
  upstreamWatches: number;
  packetsIn: number;
  packetsOut: number;
  droppedPackets: number;
  /** Times a viewer fell behind and was dropped to the next keyframe. */
  skips: number;
  keyframeRequests: { asked: number; sent: number };
  /** Packet arrival from the robot → handed to the viewer's socket, milliseconds. */
  latencyMs: LatencySummary;
  /** The same, every packet since the relay started (two readings subtract to a span). */
  latencyCounts: LatencyCounts;
  /**
   * Picture arrival → its last packet handed to a viewer's socket, once per picture and viewer,
   * since the relay started. Unlike `latencyCounts` it includes the time a picture's later
   * packets wait, unread, while the earlier ones go out to every viewer.
   */
  pictureLatencyCounts: LatencyCounts;
  viewersClosed: { silent: number; total: number };
}

export interface VideoRelay {
  open(events: { closed(reason: string): void }): RelayOpen;
  stats(): RelayStats;
  stop(): void;
}

interface Viewer {
  id: number;
  peer: ViewerPeer;
  queue: ViewerQueue;
  openedAt: number;
  /** Last RTCP from it, or the first packet sent to it: from then on the silence rule applies. */
  heardAt: number | undefined;
  connected: boolean;
  closed(reason: string): void;
}

class Relay implements VideoRelay {
  private readonly viewers = new Map<number, Viewer>();
  private readonly now: () => number;
  private readonly schedule: Schedule;
  private readonly keyframes: KeyframeRequests;
  private readonly latency = createLatencyWindow(4096);
  private readonly latencyTotals = createLatencyHistogram();
  private readonly pictureTotals = createLatencyHistogram();
  /** The picture being received: its RTP timestamp, its first packet's arrival, its viewers' turns. */
  private picture: { timestamp: number; at: number; turns: Viewer[] } = { timestamp: -1, at: 0, turns: [] };
  private pictures = 0;
  private readonly counts = { packetsIn: 0, packetsOut: 0, gone: 0, silent: 0, droppedClosed: 0, skipsClosed: 0 };
  private watch: VideoWatch | undefined;
  private spotKeyframe = createKeyframeSpotter();
  private upstreamSsrc: number | undefined;
  private nextId = 1;
  private cancelSweep: (() => void) | undefined;

  constructor(private readonly o: VideoRelayOptions) {
    this.now = o.now ?? (() => performance.now());
    this.schedule = o.schedule ?? realSchedule;
    this.keyframes = createKeyframeRequests({
      send: () => this.watch?.requestKeyframe(),
      now: this.now,
      schedule: this.schedule,
    });
  }

  open(events: { closed(reason: string): void }): RelayOpen {
    if (this.viewers.size >= (this.o.maxViewers ?? 128)) {
      return { ok: false, code: 'VIDEO_BUSY', error: `the relay already serves ${this.viewers.size} viewers` };
    }
    if (!this.watch) {
      const watched = this.o.hub.watchVideo((rtp) => this.forward(rtp));
      if (!watched.ok) return { ok: false, code: 'VIDEO_UNAVAILABLE', error: watched.error };
      this.watch = watched.watch;
      this.spotKeyframe = createKeyframeSpotter();
      this.upstreamSsrc = undefined;
      this.sweepSoon();
    }
    const id = this.nextId++;
    const peerEvents: RelayPeerEvents = {
      pictureLoss: () => this.keyframes.request(),
      heard: () => this.heard(id),
      connected: () => this.connected(id),
      gone: (reason) => this.close(id, reason),
    };
    const peer = this.o.createPeer ? this.o.createPeer(peerEvents) : new RelayPeer(peerEvents, this.o.hostAddresses);
    const queue = new ViewerQueue({
      send: (packet) => peer.send(packet),
      needKeyframe: () => this.keyframes.request(),
      sent: (packet) => this.sent(id, packet),
      defer: this.o.defer ?? setImmediate,
    });
    const at = this.now();
    this.viewers.set(id, { id, peer, queue, openedAt: at, heardAt: undefined, connected: false, closed: events.closed });
    return {
      ok: true,
      viewer: {
        id,
        offer: () => peer.offer(),
        answer: (sdp) => peer.answer(sdp),
        candidate: (candidate, sdpMid, sdpMLineIndex) => peer.candidate(candidate, sdpMid, sdpMLineIndex),
        close: () => this.close(id, 'closed by the viewer', false),
      },
    };
  }

  stats(): RelayStats {
    let connected = 0;
    let dropped = this.counts.droppedClosed;
    let skips = this.counts.skipsClosed;
    for (const viewer of this.viewers.values()) {
      const s = viewer.queue.stats();
      if (viewer.connected) connected += 1;
      dropped += s.dropped;
      skips += s.skips;
    }
    return {
      viewers: this.viewers.size,
      connected,
      upstreamWatches: this.watch ? 1 : 0,
      packetsIn: this.counts.packetsIn,
      packetsOut: this.counts.packetsOut,
      droppedPackets: dropped,
      skips,
      keyframeRequests: this.keyframes.counts(),
      latencyMs: this.latency.summary(),
      latencyCounts: this.latencyTotals.snapshot(),
      pictureLatencyCounts: this.pictureTotals.snapshot(),
      viewersClosed: { silent: this.counts.silent, total: this.counts.gone },
    };
  }

  stop(): void {
    for (const id of [...this.viewers.keys()]) this.close(id, 'the camera stopped');
  }

  private forward(rtp: RtpPacket): void {
    const receivedAt = this.now();
    this.counts.packetsIn += 1;
    const { ssrc, timestamp } = rtp.header;
    if (this.upstreamSsrc !== undefined && ssrc !== this.upstreamSsrc) {
      // A new session with the robot (microphone renegotiated, robot restarted): everyone rejoins at its keyframe.
      this.spotKeyframe = createKeyframeSpotter();
      for (const viewer of this.viewers.values()) if (viewer.connected) viewer.queue.restartAtKeyframe();
    }
    if (this.upstreamSsrc !== ssrc || this.picture.timestamp !== timestamp) {
      this.picture = { timestamp, at: receivedAt, turns: this.turnOrder() };
    }
    this.upstreamSsrc = ssrc;
    const packet: RelayPacket = {
      rtp,
      receivedAt,
      pictureAt: this.picture.at,
      keyframeStart: this.spotKeyframe(timestamp, rtp.payload),
    };
    // A viewer queued first has its turn first (viewer-queue.ts). One that joins mid-picture
    // waits for a keyframe, which starts a picture; one that left has a closed queue.
    for (const viewer of this.picture.turns) if (viewer.connected) viewer.queue.offer(packet);
  }

  /** The viewers in turn order for the next picture: starting one further than the last. */
  private turnOrder(): Viewer[] {
    const all = [...this.viewers.values()];
    if (all.length === 0) return all;
    const first = this.pictures++ % all.length;
    return [...all.slice(first), ...all.slice(0, first)];
  }

  private sent(id: number, packet: RelayPacket): void {
    const t = this.now();
    this.counts.packetsOut += 1;
    this.latency.add(t - packet.receivedAt);
    this.latencyTotals.add(t - packet.receivedAt);
    // The marker bit ends a picture (RFC 6184): the viewer now has all of it.
    if (packet.rtp.header.marker) this.pictureTotals.add(t - packet.pictureAt);
    const viewer = this.viewers.get(id);
    if (viewer && viewer.heardAt === undefined) viewer.heardAt = t;
  }

  private connected(id: number): void {
    const viewer = this.viewers.get(id);
    if (!viewer || viewer.connected) return;
    viewer.connected = true;
    viewer.queue.restartAtKeyframe();
  }

  private heard(id: number): void {
    const viewer = this.viewers.get(id);
    if (viewer) viewer.heardAt = this.now();
  }

  private close(id: number, reason: string, tell = true): void {
    const viewer = this.viewers.get(id);
    if (!viewer) return;
    this.viewers.delete(id);
    const s = viewer.queue.stats();
    this.counts.droppedClosed += s.dropped;
    this.counts.skipsClosed += s.skips;
    this.counts.gone += 1;
    viewer.queue.close();
    viewer.peer.close();
    if (tell) viewer.closed(reason);
    if (this.viewers.size === 0) {
      this.cancelSweep?.();
      this.cancelSweep = undefined;
      this.keyframes.stop();
      this.watch?.close();
      this.watch = undefined;
      // Holds the viewers of the last picture, peers included: let them go.
      this.picture = { timestamp: -1, at: 0, turns: [] };
    }
  }

  /** Closes viewers that vanished: silent once media flowed, or never got that far. */
  private sweep(): void {
    this.cancelSweep = undefined;
    const t = this.now();
    const silenceMs = this.o.silenceMs ?? 8000;
    const setupMs = this.o.setupMs ?? 15_000;
    for (const viewer of [...this.viewers.values()]) {
      const silent = viewer.heardAt !== undefined && t - viewer.heardAt > silenceMs;
      if (silent || (viewer.heardAt === undefined && t - viewer.openedAt > setupMs)) {
        this.counts.silent += 1;
        this.o.log.debug('video viewer vanished; closed', { id: viewer.id, connected: viewer.connected });
        const reason = silent
          ? `no word from the viewer for ${silenceMs} ms`
          : viewer.connected
            ? `no video reached the viewer within ${setupMs} ms`
            : 'the viewer never connected';
        this.close(viewer.id, reason);
      }
    }
    if (this.viewers.size > 0) this.sweepSoon();
  }

  private sweepSoon(): void {
    this.cancelSweep ??= this.schedule(() => this.sweep(), 1000);
  }
}

export function createVideoRelay(options: VideoRelayOptions): VideoRelay {
  return new Relay(options);
}
