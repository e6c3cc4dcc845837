/**
 * The camera feature's public entry: ONE upstream camera client per robot behind a frame hub
 * (docs/architecture.md, "Processes and data flow"), the MJPEG and /ws viewers over it, and the choice of source from the
 * camera setting. README-camera.md has the wiring and the binary /ws frame layout.
 */
import type { Log } from '../log.ts';
import type { CameraSetting } from './camera-setting.ts';
import { createFrameHub, type FrameHub } from './frame-hub.ts';
import { chooseCameraSource } from './sources/choose-source.ts';

export {
  createFrameHub,
  type FrameHub,
  type FrameHubOptions,
  type HubStats,
  type MicrophoneListen,
  type Subscription,
  type VideoWatch,
  type VideoWatchResult,
} from './frame-hub.ts';
export type { CameraMicrophone, MicrophoneListener, MicrophoneSubscription } from './audio/microphone-tap.ts';
export type { CameraFrame, CameraSource, FrameKind, H264AccessUnit } from './frame.ts';
export {
  CAMERA_SETTING_EXPECTS,
  DEFAULT_CAMERA_SETTING,
  defaultSignallingUrl,
  parseCameraSetting,
  type CameraSetting,
} from './camera-setting.ts';
export { chooseCameraSource, type SourceContext } from './sources/choose-source.ts';
export { serveMjpeg, MJPEG_BOUNDARY } from './mjpeg-stream.ts';
export { cameraSocketHandler, type CameraSocketClient } from './ws-feed.ts';
export { createVideoRelay, type RelayStats, type VideoRelay, type VideoRelayOptions } from './relay/video-relay.ts';
export { videoSocketHandler } from './relay/relay-socket.ts';
export { openRelayPeers } from './relay/relay-peer.ts';
export type { RtpPacket, VideoRtp } from './video-rtp.ts';
export { decodeFramePacket, encodeFramePacket, FRAME_PACKET_HEADER, FRAME_PACKET_JPEG } from './frame-packet.ts';

export interface CameraOptions {
  setting: CameraSetting;
  /** The daemon's HTTP base URL (the simulator's when simulated). */
  daemonUrl: string;
  /** `sim.cameraSignallingUrl` when the built-in simulator runs. */
  simSignallingUrl?: string;
  log: Log;
  /** Close the upstream client after this long without viewers; null keeps it open (default 30 s). */
  idleStopMs?: number | null;
  platform?: NodeJS.Platform;
}

/** The robot's camera: the source the setting names, behind a frame hub. Call start() and stop(). */
export function createCamera(options: CameraOptions): FrameHub {
  const log = options.log.child('camera');
  const source = chooseCameraSource(options.setting, {
    daemonUrl: options.daemonUrl,
    platform: options.platform ?? process.platform,
    log,
    ...(options.simSignallingUrl ? { simSignallingUrl: options.simSignallingUrl } : {}),
  });
  return createFrameHub({
    source,
    log,
    ...(options.idleStopMs !== undefined ? { idleStopMs: options.idleStopMs } : {}),
  });
}
