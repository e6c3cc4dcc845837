/**
 * One viewer's outgoing packets: a bounded queue with a few sends in flight. A viewer that
 * cannot keep up is never buffered without bound: when its queue is full, everything waiting
 * is dropped and it rejoins at the next keyframe (asking for one), so it sees a short freeze
 * instead of an ever-growing delay, and the other viewers never wait for it.
 *
 * Packets are taken at once and sent in the viewer's next turn (`defer`), all that are waiting
 * together; the relay's turns are why (video-relay.ts).
 */
import type { RtpPacket } from '../video-rtp.ts';

/** One packet from the robot, shared by every viewer's queue (never modified). */
export interface RelayPacket {
  rtp: RtpPacket;
  /** When it arrived from the robot (the relay's clock, milliseconds). */
  receivedAt: number;
  /**
   * When the first packet of its picture arrived. A picture's packets leave the robot together,
   * but one that arrives while the cockpit is busy sending waits, unread, until it is done: only
   * counting from the picture's first packet includes that wait.
   */
  pictureAt: number;
  /** A viewer may start (or restart) here: the first picture packet of a keyframe. */
  keyframeStart: boolean;
}

export interface ViewerQueueOptions {
  send(packet: RelayPacket): Promise<void>;
  /** The viewer waits for a keyframe (it joined, or was dropped): ask the robot for one. */
  needKeyframe(): void;
  /** A packet has left for the viewer; `receivedAt` says how long it spent in the relay. */
  sent(packet: RelayPacket): void;
  /** Packets waiting, at most (default 256: about a second of 640×360 video). */
  maxQueued?: number;
  /** Sends in flight at once (default 8). */
  maxInFlight?: number;
  /** Schedules the viewer's sending turn (default: at once). */
  defer?: (turn: () => void) => void;
}

export interface ViewerQueueStats {
  waiting: boolean;
  queued: number;
  sent: number;
  /** Packets not sent to this viewer because it was behind or waiting for a keyframe. */
  dropped: number;
  /** Times it fell behind and was dropped to the next keyframe. */
  skips: number;
}

export class ViewerQueue {
  private readonly queue: RelayPacket[] = [];
  private readonly maxQueued: number;
  private readonly maxInFlight: number;
  private inFlight = 0;
  private turnPending = false;
  private waiting = true;
  private closed = false;
  private counts = { sent: 0, dropped: 0, skips: 0 };

  constructor(private readonly o: ViewerQueueOptions) {
    this.maxQueued = o.maxQueued ?? 256;
    this.maxInFlight = o.maxInFlight ?? 8;
  }

  offer(packet: RelayPacket): void {
    if (this.closed) return;
    if (this.waiting && !packet.keyframeStart) {
      this.counts.dropped += 1;
      return;
    }
    this.waiting = false;
    if (this.queue.length >= this.maxQueued) {
      this.counts.skips += 1;
      this.counts.dropped += this.queue.length + 1;
      this.queue.length = 0;
      this.restartAtKeyframe();
      return;
    }
    this.queue.push(packet);
    this.pumpSoon();
  }

  /** Drops nothing already queued; from now on only a keyframe is taken (joined, or the robot's stream restarted). */
  restartAtKeyframe(): void {
    if (this.closed) return;
    this.waiting = true;
    this.o.needKeyframe();
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  stats(): ViewerQueueStats {
    return { waiting: this.waiting, queued: this.queue.length, ...this.counts };
  }

  private pumpSoon(): void {
    if (this.turnPending) return;
    this.turnPending = true;
    const turn = (): void => {
      this.turnPending = false;
      this.pump();
    };
    if (this.o.defer) this.o.defer(turn);
    else turn();
  }

  private pump(): void {
    while (!this.closed && this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const packet = this.queue.shift() as RelayPacket;
      this.inFlight += 1;
      this.o.send(packet).then(
        () => this.done(packet, true),
        () => this.done(packet, false),
      );
    }
  }

  private done(packet: RelayPacket, ok: boolean): void {
    this.inFlight -= 1;
    if (ok) {
      this.counts.sent += 1;
      this.o.sent(packet);
    } else this.counts.dropped += 1;
    this.pump();
  }
}
