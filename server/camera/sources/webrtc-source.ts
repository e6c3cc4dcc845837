/**
 * The robot daemon's camera (docs/daemon.md, "Media"): ONE WebRTC session with webrtcsink
 * through its signalling server at ws://<robot>:8443, kept by CameraSessionKeeper. H.264
 * frames always; JPEG frames while someone wants them (frame-maker.ts); the robot's microphone
 * through the same session while someone listens (audio/microphone-tap.ts). It never touches
 * /api/media: a camera that is not there is waited for, not forced (docs/contract.md,
 * operational rules).
 */
import type { Log } from '../../log.ts';
import { createMicrophoneTap, type CameraMicrophone, type MicrophoneTap } from '../audio/microphone-tap.ts';
import type { CameraFrame, CameraSource } from '../frame.ts';
import { createVideoRtpTap, type VideoRtp, type VideoRtpTap } from '../video-rtp.ts';
import { createH264FrameMaker, type H264FrameMaker } from '../h264/frame-maker.ts';
import { CameraSessionKeeper } from './camera-session-keeper.ts';
import { connectSignalling, type SignallingClient } from './signalling-client.ts';

export { pickProducer } from './camera-session-keeper.ts';

export interface WebrtcSourceOptions {
  /** The signalling server, e.g. `ws://127.0.0.1:8443`. */
  url: string;
  log: Log;
  /** The producer's meta name (default "reachymini"). */
  producerName?: string;
  connectTimeoutMs?: number;
  jpegQuality?: number;
  ffmpegBinary?: string;
  /** After the last microphone listener leaves, audio stays in the session this long (default 3 s). */
  microphoneLingerMs?: number;
}

interface Run {
  client: SignallingClient;
  frames: H264FrameMaker;
  keeper: CameraSessionKeeper;
}

class WebrtcCameraSource implements CameraSource {
  readonly name: string;
  private readonly log: Log;
  private readonly tap: MicrophoneTap;
  private readonly rtp: VideoRtpTap = createVideoRtpTap(() => this.run?.keeper.requestKeyframe());
  private run: Run | undefined;
  private jpeg = false;

  constructor(private readonly o: WebrtcSourceOptions) {
    this.name = `webrtc ${o.url}`;
    this.log = o.log.child('webrtc');
    this.tap = createMicrophoneTap({
      name: `daemon microphone (${this.name})`,
      log: this.log.child('microphone'),
      onWant: () => this.run?.keeper.audioChanged(),
      ...(o.microphoneLingerMs !== undefined ? { offLingerMs: o.microphoneLingerMs } : {}),
      ...(o.ffmpegBinary ? { ffmpegBinary: o.ffmpegBinary } : {}),
    });
  }

  get microphone(): CameraMicrophone {
    return this.tap;
  }

  get video(): VideoRtp {
    return this.rtp;
  }

  async start(onFrame: (frame: CameraFrame) => void, onError: (error: Error) => void): Promise<void> {
    if (this.run) throw new Error('webrtc source already started');
    // Messages only come after the welcome, by which time the keeper exists.
    const ref: { keeper?: CameraSessionKeeper } = {};
    const client = await connectSignalling(this.o.url, {
      timeoutMs: this.o.connectTimeoutMs ?? 3000,
      onMessage: (m) => ref.keeper?.onMessage(m),
      onClose: (reason) => ref.keeper?.active && onError(new Error(reason)),
    });
    const frames = createH264FrameMaker({
      log: this.log,
      emit: onFrame,
      requestKeyframe: () => ref.keeper?.requestKeyframe(),
      ...(this.o.jpegQuality ? { jpegQuality: this.o.jpegQuality } : {}),
      ...(this.o.ffmpegBinary ? { ffmpegBinary: this.o.ffmpegBinary } : {}),
    });
    ref.keeper = new CameraSessionKeeper(client, frames, this.tap, this.rtp, this.o.producerName ?? 'reachymini', this.log);
    this.run = { client, frames, keeper: ref.keeper };
    frames.wantJpeg(this.jpeg);
    ref.keeper.begin();
  }

  stop(): Promise<void> {
    const run = this.run;
    this.run = undefined;
    if (run) {
      run.keeper.stop();
      run.frames.stop();
      run.client.close();
    }
    return Promise.resolve();
  }

  wantJpeg(on: boolean): void {
    this.jpeg = on;
    this.run?.frames.wantJpeg(on);
  }
}

/** The daemon's camera as a CameraSource. */
export function createWebrtcSource(options: WebrtcSourceOptions): CameraSource {
  return new WebrtcCameraSource(options);
}
