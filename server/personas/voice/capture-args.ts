/**
 * ffmpeg arguments that turn a capture device or a file into PCM16 mono 16 kHz on stdout:
 * ALSA or PulseAudio on Linux, AVFoundation on macOS (`:<audio>` = no video device), DirectShow
 * on Windows (`audio=<name>` as ONE argument: the name may contain spaces). The same output
 * arguments serve every input, so the listener never sees another format.
 */
import { SAMPLE_RATE } from './audio-source.ts';

export type LinuxBackend = 'alsa' | 'pulse';

export interface CaptureSpec {
  /** ALSA/Pulse: a device name (`default`, `hw:1,0`); macOS: an index or name; Windows: the name. */
  device: string;
  platform: NodeJS.Platform;
  /** Linux only; ALSA by default (its `default` device goes through PulseAudio where it runs). */
  backend?: LinuxBackend;
}

const QUIET = ['-hide_banner', '-loglevel', 'error', '-nostdin'];

/** Raw PCM out, each packet flushed at once so speech reaches the detector without delay. */
export function pcmOutputArgs(): string[] {
  return [
    '-vn',
    '-ac',
    '1',
    '-ar',
    String(SAMPLE_RATE),
    '-c:a',
    'pcm_s16le',
    '-f',
    's16le',
    '-flush_packets',
    '1',
    'pipe:1',
  ];
}

function inputArgs(spec: CaptureSpec): string[] {
  switch (spec.platform) {
    case 'linux':
      return ['-f', spec.backend ?? 'alsa', '-i', spec.device];
    case 'darwin':
      return ['-f', 'avfoundation', '-i', `:${spec.device}`];
    case 'win32':
      return ['-f', 'dshow', '-i', `audio=${spec.device}`];
    default:
      throw new Error(`no microphone capture support on ${spec.platform}`);
  }
}

export function captureArgs(spec: CaptureSpec): string[] {
  // Capture devices buffer on their own; no probing delay before the first samples.
  return [...QUIET, '-fflags', 'nobuffer', ...inputArgs(spec), ...pcmOutputArgs()];
}

/** A file (or a named pipe, or a URL ffmpeg can read); `realtime` paces it like a microphone. */
export function fileArgs(path: string, realtime: boolean): string[] {
  return [...QUIET, ...(realtime ? ['-re'] : []), '-i', path, ...pcmOutputArgs()];
}
