/**
 * The robot's microphone and the raw video RTP (for the WebRTC relay), where the source carries
 * them, taken through the frame hub so that they keep its one upstream client open like a viewer
 * (README-camera.md, "Frame hub"). Only the daemon's WebRTC camera carries them; others are refused
 * with the reason, as a value.
 */
import type { MicrophoneListener, MicrophoneSubscription } from './audio/microphone-tap.ts';
import type { CameraSource } from './frame.ts';
import type { RtpPacket } from './video-rtp.ts';

/** Raw video RTP from the source, while the watch is open; it keeps the upstream client open. */
export interface VideoWatch {
  close(): void;
  /** Asks the robot for a keyframe (coalesce before calling: relay/keyframe-requests.ts). */
  requestKeyframe(): void;
}

export type VideoWatchResult = { ok: true; watch: VideoWatch } | { ok: false; error: string };

/** Listening to the microphone either works or says why not (errors as values). */
export type MicrophoneListen = { ok: true; subscription: MicrophoneSubscription } | { ok: false; error: string };

export interface TapOptions {
  /** null: no camera configured; every tap is refused. */
  source: CameraSource | null;
  /** A listener or watch opened. */
  joined(): void;
  /** A listener or watch closed by its owner. */
  left(): void;
}

export interface Taps {
  /** Open microphone listeners and video watches together. */
  readonly count: number;
  readonly videoWatchers: number;
  listenMicrophone(listener: MicrophoneListener): MicrophoneListen;
  watchVideo(onPacket: (rtp: RtpPacket) => void): VideoWatchResult;
  /** Closes every video watch as its owner would. */
  closeVideoWatches(): void;
  /** Ends every microphone listener (`end(reason)`). */
  endMicrophone(reason: string): void;
}

class SourceTaps implements Taps {
  private readonly microphoneListeners = new Map<MicrophoneListener, MicrophoneSubscription>();
  private readonly videoWatches = new Set<() => void>();

  constructor(private readonly options: TapOptions) {}

  get count(): number {
    return this.microphoneListeners.size + this.videoWatches.size;
  }

  get videoWatchers(): number {
    return this.videoWatches.size;
  }

  listenMicrophone(listener: MicrophoneListener): MicrophoneListen {
    const microphone = this.options.source?.microphone;
    if (!microphone) return { ok: false, error: this.lacking('robot microphone') };
    const subscription = microphone.listen(listener);
    this.microphoneListeners.set(listener, subscription);
    this.options.joined();
    const close = (): void => {
      if (!this.microphoneListeners.delete(listener)) return;
      subscription.close();
      this.options.left();
    };
    return { ok: true, subscription: { close } };
  }

  watchVideo(onPacket: (rtp: RtpPacket) => void): VideoWatchResult {
    const video = this.options.source?.video;
    if (!video) return { ok: false, error: this.lacking('H.264 RTP to relay') };
    const unlisten = video.listen(onPacket);
    const close = (): void => {
      if (!this.videoWatches.delete(close)) return;
      unlisten();
      this.options.left();
    };
    this.videoWatches.add(close);
    this.options.joined();
    return { ok: true, watch: { close, requestKeyframe: () => video.requestKeyframe() } };
  }

  closeVideoWatches(): void {
    for (const close of [...this.videoWatches]) close();
  }

  endMicrophone(reason: string): void {
    const listening = [...this.microphoneListeners];
    this.microphoneListeners.clear();
    for (const [listener, subscription] of listening) {
      subscription.close();
      listener.end(reason);
    }
  }

  private lacking(what: string): string {
    const { source } = this.options;
    const who = source ? `the camera source (${source.name})` : 'no camera is configured, so it';
    return `${who} has no ${what}: it comes only with the daemon's WebRTC camera`;
  }
}

export function createTaps(options: TapOptions): Taps {
  return new SourceTaps(options);
}
