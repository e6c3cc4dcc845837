/**
 * ffmpeg arguments for a local capture device (a robot whose camera is a plain webcam): v4l2
 * on Linux, AVFoundation on macOS, DirectShow on Windows, always producing MJPEG on stdout.
 * Pictures are re-encoded by default, which works with any camera; `passthrough` copies the
 * camera's own MJPEG instead (no CPU), for cameras that offer it.
 */

export interface DeviceSpec {
  /** Linux: a path such as /dev/video0; macOS: an index or name; Windows: the device name. */
  device: string;
  platform: NodeJS.Platform;
  width?: number;
  height?: number;
  fps?: number;
  /** mjpeg qscale 2..31 when re-encoding; default 5. */
  quality?: number;
  passthrough?: boolean;
}

function inputArgs(spec: DeviceSpec, size: string, fps: string): string[] {
  switch (spec.platform) {
    case 'linux':
      return [
        ...['-f', 'v4l2', '-framerate', fps, '-video_size', size],
        ...(spec.passthrough ? ['-input_format', 'mjpeg'] : []),
        ...['-i', spec.device],
      ];
    case 'darwin':
      // "<video>:<audio>"; "none" keeps the microphone closed.
      return ['-f', 'avfoundation', '-framerate', fps, '-video_size', size, '-i', `${spec.device}:none`];
    case 'win32':
      return ['-f', 'dshow', '-framerate', fps, '-video_size', size, '-i', `video=${spec.device}`];
    default:
      throw new Error(`no capture device support on ${spec.platform}`);
  }
}

/** MJPEG on stdout, one picture per frame, without holding any frame back (see jpeg-decoder.ts). */
export function mjpegOutputArgs(quality = 5, passthrough = false): string[] {
  const codec = passthrough
    ? ['-c:v', 'copy']
    : ['-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-qmin', String(quality), '-qmax', String(quality)];
  return ['-an', ...codec, '-vsync', 'passthrough', '-f', 'image2pipe', '-flush_packets', '1', 'pipe:1'];
}

export function deviceArgs(spec: DeviceSpec): string[] {
  const size = `${spec.width ?? 640}x${spec.height ?? 480}`;
  const fps = String(spec.fps ?? 15);
  return [
    ...['-hide_banner', '-loglevel', 'error'],
    ...inputArgs(spec, size, fps),
    ...mjpegOutputArgs(spec.quality, spec.passthrough),
  ];
}
