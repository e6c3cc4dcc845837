/**
 * The browser's side of the cockpit's WebRTC relay (server/camera/relay/README-relay.md): over
 * the dashboard's /ws socket it asks for video (`start`), answers the cockpit's offer, trickles
 * its candidates, and plays the one H.264 track it receives in a <video>. LAN only: no STUN or
 * TURN server. It reports every picture shown (requestVideoFrameCallback) and why it ended, so
 * the camera view can fall back to the socket's JPEG pictures.
 */
import type { ServerFrame, VideoServerMessage } from '../../../../server/contract/index.ts';

export interface RelayVideoEvents {
  /**
   * A picture was shown. `captureTime`: when it was captured, on this page's performance clock,
   * when the browser knows it; `delayMs`: from its last packet's arrival here to its display.
   */
  shown(info: { captureTime: number | null; delayMs: number | null }): void;
  /** The relay refused or ended this viewer, or the connection failed: use another path. */
  failed(reason: string): void;
}

/** What the browser tells about a shown video frame (the subset used here). */
interface FrameMetadata {
  expectedDisplayTime?: number;
  receiveTime?: number;
  captureTime?: number;
}

type FrameCallback = (now: number, metadata: FrameMetadata) => void;
type VideoWithFrames = HTMLVideoElement & { requestVideoFrameCallback?(cb: FrameCallback): number };

export function webrtcAvailable(): boolean {
  return typeof RTCPeerConnection === 'function';
}

function isVideoMessage(frame: ServerFrame): frame is VideoServerMessage {
  return frame.type === 'video' && typeof frame['action'] === 'string';
}

export class RelayVideo {
  #pc: RTCPeerConnection | null = null;
  #id: number | null = null;
  #ended = false;

  constructor(
    private readonly send: (message: object) => boolean,
    private readonly video: VideoWithFrames,
    private readonly events: RelayVideoEvents,
  ) {}

  start(): void {
    if (!this.send({ type: 'video', action: 'start' })) this.#fail('the socket is not open');
  }

  /** Every frame the dashboard socket brings; video messages are for this viewer. */
  hear(frame: ServerFrame): void {
    if (this.#ended || !isVideoMessage(frame)) return;
    if (frame.action === 'refused') return this.#fail(frame.error);
    if (frame.action === 'closed' && frame.id === this.#id) return this.#fail(frame.reason);
    if (frame.action === 'offer' && this.#id === null) void this.#answer(frame.id, frame.sdp);
  }

  stop(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#id !== null) this.send({ type: 'video', action: 'stop', id: this.#id });
    this.#close();
  }

  async #answer(id: number, sdp: string): Promise<void> {
    this.#id = id;
    const pc = new RTCPeerConnection({ iceServers: [] });
    this.#pc = pc;
    pc.ontrack = (event) => {
      this.video.srcObject = event.streams[0] ?? new MediaStream([event.track]);
      this.video.play().catch(() => {
        // Autoplay of a muted video is allowed; a refusal here is reported by the missing pictures.
      });
      this.#watchFrames();
    };
    pc.onicecandidate = (event) => {
      const c = event.candidate;
      if (c && c.candidate && !this.#ended) {
        this.send({
          type: 'video',
          action: 'candidate',
          id,
          candidate: c.candidate,
          ...(c.sdpMid !== null ? { sdpMid: c.sdpMid } : {}),
          ...(c.sdpMLineIndex !== null ? { sdpMLineIndex: c.sdpMLineIndex } : {}),
        });
      }
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed') this.#fail('the WebRTC connection failed');
    };
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp });
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      if (!this.#ended) this.send({ type: 'video', action: 'answer', id, sdp: answer.sdp ?? '' });
    } catch (error) {
      this.#fail(`this browser could not take the video: ${String(error)}`);
    }
  }

  #watchFrames(): void {
    const video = this.video;
    if (typeof video.requestVideoFrameCallback !== 'function') {
      // Without per-frame callbacks, each decoded-size change is all there is to count.
      video.onresize = () => this.events.shown({ captureTime: null, delayMs: null });
      return;
    }
    const request = video.requestVideoFrameCallback.bind(video);
    const onFrame: FrameCallback = (_now, metadata) => {
      if (this.#ended) return;
      const { receiveTime, expectedDisplayTime, captureTime } = metadata;
      const delayMs =
        receiveTime !== undefined && expectedDisplayTime !== undefined ? Math.max(0, expectedDisplayTime - receiveTime) : null;
      this.events.shown({ captureTime: captureTime ?? null, delayMs });
      request(onFrame);
    };
    request(onFrame);
  }

  #fail(reason: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#close();
    this.events.failed(reason);
  }

  #close(): void {
    this.#pc?.close();
    this.#pc = null;
    this.video.srcObject = null;
  }
}
