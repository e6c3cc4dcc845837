/** Source choice, capture-device arguments, and the MJPEG process source on ffmpeg's test picture. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { defaultSignallingUrl, parseCameraSetting } from '../camera-setting.ts';
import type { CameraFrame } from '../frame.ts';
import { isWholeJpeg } from '../jpeg.ts';
import { holdsEventually } from '../../testing/eventually.ts';
import { chooseCameraSource } from './choose-source.ts';
import { deviceArgs, mjpegOutputArgs } from './device-args.ts';
import { createMjpegProcessSource } from './mjpeg-process-source.ts';

describe('camera setting', () => {
  it('parses daemon, daemon:<ws url>, device:<path> and off, and nothing else', () => {
    expect(parseCameraSetting('daemon')).toEqual({ kind: 'daemon' });
    expect(parseCameraSetting(' daemon:ws://robot.local:9443 ')).toEqual({
      kind: 'daemon',
      signallingUrl: 'ws://robot.local:9443',
    });
    expect(parseCameraSetting('device:/dev/video2')).toEqual({ kind: 'device', device: '/dev/video2' });
    expect(parseCameraSetting('device:FaceTime HD Camera')).toEqual({ kind: 'device', device: 'FaceTime HD Camera' });
    expect(parseCameraSetting('off')).toEqual({ kind: 'off' });
    for (const bad of ['', 'device:', 'daemon:http://x', 'daemon:nonsense', 'webcam'])
      expect(parseCameraSetting(bad)).toBeUndefined();
  });

  it('puts the signalling server on the daemon host, port 8443', () => {
    expect(defaultSignallingUrl('http://127.0.0.1:8000')).toBe('ws://127.0.0.1:8443');
    expect(defaultSignallingUrl('http://reachy-mini.local:8000')).toBe('ws://reachy-mini.local:8443');
    expect(defaultSignallingUrl('http://[::1]:8000')).toBe('ws://[::1]:8443');
  });

  it('chooses the source from the setting; the simulator supplies its own signalling address', () => {
    const ctx = { daemonUrl: 'http://10.0.0.5:8000', platform: 'linux' as const, log: silentLog };
    expect(chooseCameraSource({ kind: 'off' }, ctx)).toBeNull();
    expect(chooseCameraSource({ kind: 'daemon' }, ctx)?.name).toBe('webrtc ws://10.0.0.5:8443');
    expect(chooseCameraSource({ kind: 'daemon' }, { ...ctx, simSignallingUrl: 'ws://127.0.0.1:4000' })?.name).toBe(
      'webrtc ws://127.0.0.1:4000',
    );
    expect(chooseCameraSource({ kind: 'daemon', signallingUrl: 'ws://x:1' }, ctx)?.name).toBe('webrtc ws://x:1');
    expect(chooseCameraSource({ kind: 'device', device: '/dev/video0' }, ctx)?.name).toBe('device /dev/video0');
  });
});

describe('capture device arguments', () => {
  const out = mjpegOutputArgs(5);

  it('uses v4l2 on Linux', () => {
    expect(deviceArgs({ device: '/dev/video0', platform: 'linux' })).toEqual([
      ...['-hide_banner', '-loglevel', 'error'],
      ...['-f', 'v4l2', '-framerate', '15', '-video_size', '640x480', '-i', '/dev/video0'],
      ...out,
    ]);
    expect(
      deviceArgs({ device: '/dev/video1', platform: 'linux', passthrough: true, fps: 30, width: 1280, height: 720 }),
    ).toEqual([
      ...['-hide_banner', '-loglevel', 'error'],
      ...['-f', 'v4l2', '-framerate', '30', '-video_size', '1280x720', '-input_format', 'mjpeg', '-i', '/dev/video1'],
      ...['-an', '-c:v', 'copy', '-vsync', 'passthrough', '-f', 'image2pipe', '-flush_packets', '1', 'pipe:1'],
    ]);
  });

  it('uses AVFoundation on macOS, with the microphone left closed', () => {
    expect(deviceArgs({ device: '0', platform: 'darwin' }).slice(3, 11)).toEqual([
      ...['-f', 'avfoundation', '-framerate', '15', '-video_size', '640x480', '-i', '0:none'],
    ]);
  });

  it('uses DirectShow on Windows, the name passed as one argument (no shell quoting)', () => {
    expect(deviceArgs({ device: 'USB2.0 HD UVC WebCam', platform: 'win32' }).slice(3, 11)).toEqual([
      ...['-f', 'dshow', '-framerate', '15', '-video_size', '640x480', '-i', 'video=USB2.0 HD UVC WebCam'],
    ]);
  });

  it('refuses a platform without capture support', () => {
    expect(() => deviceArgs({ device: 'x', platform: 'aix' })).toThrow(/aix/);
  });

  it('re-encodes with the quality pinned (qmin = qmax) and no frame held back', () => {
    expect(out).toEqual([
      ...['-an', '-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-qmin', '5', '-qmax', '5'],
      ...['-vsync', 'passthrough', '-f', 'image2pipe', '-flush_packets', '1', 'pipe:1'],
    ]);
  });
});

describe('MJPEG process source', () => {
  it('turns every JPEG ffmpeg prints into a stamped, numbered frame', async () => {
    // ffmpeg's test picture stands in for a webcam: the same output arguments, a different input.
    const source = createMjpegProcessSource({
      name: 'test picture',
      args: [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=15',
        ...mjpegOutputArgs(5),
      ],
      log: silentLog,
    });
    const frames: CameraFrame[] = [];
    const errors: Error[] = [];
    const before = Date.now();
    await source.start(
      (f) => frames.push(f),
      (e) => errors.push(e),
    );
    await holdsEventually(() => frames.length >= 5);
    await source.stop();
    expect(frames.length).toBeGreaterThanOrEqual(5);
    expect(frames.map((f) => f.seq).slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
    for (const f of frames) {
      expect(f).toMatchObject({ width: 320, height: 240 });
      expect(f.capturedAt).toBeGreaterThanOrEqual(before);
      expect(isWholeJpeg(f.jpeg ?? Buffer.alloc(0))).toBe(true);
    }
    expect(await sharp(frames[0]?.jpeg).metadata()).toMatchObject({ width: 320, height: 240 });
    expect(errors).toEqual([]);
  });

  it('fails to start when the device cannot be opened', async () => {
    const source = createMjpegProcessSource({
      name: 'missing device',
      args: ['-hide_banner', '-loglevel', 'error', '-f', 'v4l2', '-i', '/dev/no-such-camera', ...mjpegOutputArgs()],
      log: silentLog,
    });
    await expect(
      source.start(
        () => {},
        () => {},
      ),
    ).rejects.toThrow(/missing device: ffmpeg exited/);
  });
});
