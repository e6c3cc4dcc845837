/** A local capture device (`camera: device:<path>`), read through ffmpeg as MJPEG. */
import type { Log } from '../../log.ts';
import type { CameraSource } from '../frame.ts';
import { deviceArgs, type DeviceSpec } from './device-args.ts';
import { createMjpegProcessSource } from './mjpeg-process-source.ts';

export function createDeviceSource(spec: DeviceSpec, log: Log, binary?: string): CameraSource {
  return createMjpegProcessSource({
    name: `device ${spec.device}`,
    args: deviceArgs(spec),
    log: log.child('device'),
    ...(binary ? { binary } : {}),
  });
}
