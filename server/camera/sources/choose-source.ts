/**
 * Which upstream camera to use is a plain function of the setting (camera-setting.ts). With the
 * built-in simulator, `daemon` means the WebRTC source pointed at the simulator's own
 * signalling server: the production path, end to end.
 */
import type { Log } from '../../log.ts';
import { defaultSignallingUrl, type CameraSetting } from '../camera-setting.ts';
import type { CameraSource } from '../frame.ts';
import { createDeviceSource } from './device-source.ts';
import { createSyntheticSource } from './synthetic-source.ts';
import { createWebrtcSource } from './webrtc-source.ts';

export interface SourceContext {
  /** The daemon's HTTP base URL (the simulator's when simulated). */
  daemonUrl: string;
  /** The built-in simulator's signalling URL (`sim.cameraSignallingUrl`); it wins over the default. */
  simSignallingUrl?: string;
  platform: NodeJS.Platform;
  log: Log;
}

/** null when the camera is off. */
export function chooseCameraSource(setting: CameraSetting, ctx: SourceContext): CameraSource | null {
  const { log } = ctx;
  switch (setting.kind) {
    case 'off':
      return null;
    case 'synthetic':
      return createSyntheticSource();
    case 'device':
      return createDeviceSource({ device: setting.device, platform: ctx.platform }, log);
    case 'daemon': {
      const url = setting.signallingUrl ?? ctx.simSignallingUrl ?? defaultSignallingUrl(ctx.daemonUrl);
      return createWebrtcSource({ url, log });
    }
  }
}
