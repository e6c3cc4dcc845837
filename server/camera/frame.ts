import type { CameraMicrophone } from './audio/microphone-tap.ts';
import type { VideoRtp } from './video-rtp.ts';

/**
 * What flows through the camera feature: frames from ONE upstream source per robot
 * (docs/architecture.md, "Processes and data flow"), fanned out by the frame hub to every viewer.
 */

/** One H.264 access unit in Annex-B form (start codes), as the daemon sent it. */
export interface H264AccessUnit {
  data: Buffer;
  /** An IDR picture, with its parameter sets when the sender put them in band. */
  keyframe: boolean;
}

export interface CameraFrame {
  /** Baseline JPEG, when a source or decoder produced one for this picture. */
  jpeg?: Buffer;
  /** The compressed picture, for viewers that decode H.264 themselves (WebCodecs). */
  h264?: H264AccessUnit;
  width: number;
  height: number;
  /** Milliseconds since the epoch when the source got the picture (stamped by the source). */
  capturedAt: number;
  /** Picture number from the source; a JPEG decoded from an access unit keeps its number. */
  seq: number;
}

export type FrameKind = 'jpeg' | 'h264';

/**
 * One upstream camera. `start` resolves once the source is connected and will deliver frames
 * by itself (it may still be waiting for its first picture); it rejects when it cannot start.
 * After start, trouble is reported through `onError`, and the owner decides what to do.
 */
export interface CameraSource {
  readonly name: string;
  start(onFrame: (frame: CameraFrame) => void, onError: (error: Error) => void): Promise<void>;
  stop(): Promise<void>;
  /**
   * Sources that receive H.264 decode it to JPEG only while someone needs JPEG; the hub says
   * when. Sources that produce JPEG natively leave this out.
   */
  wantJpeg?(on: boolean): void;
  /**
   * The robot's microphone, when this source's connection carries it (the daemon's WebRTC
   * session does; local capture devices and MJPEG do not).
   */
  readonly microphone?: CameraMicrophone;
  /**
   * The H.264 RTP packets as received, when this source's connection is WebRTC: the relay
   * forwards them to browsers unchanged (relay/README-relay.md).
   */
  readonly video?: VideoRtp;
}
