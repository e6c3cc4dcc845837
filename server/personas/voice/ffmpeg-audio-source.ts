/**
 * An AudioSource read from an ffmpeg child: a capture device or a file, PCM16 mono 16 kHz on
 * stdout (capture-args.ts). Not the camera's ffmpeg wrapper: that one reports the end on
 * 'exit', which can come before the last stdout bytes are read, and a file's last words are
 * exactly what the listener must not lose; 'close' waits for the pipes. Nothing here talks
 * to the daemon, so a source that cannot start cannot disturb the daemon's media.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Log } from '../../log.ts';
import type { AudioHandlers, AudioSource } from './audio-source.ts';
import { captureArgs, fileArgs } from './capture-args.ts';
import { describeSource, type SourceSetting } from './source-setting.ts';

const STDERR_TAIL = 1000;

export interface FfmpegAudioOptions {
  name: string;
  args: string[];
  log: Log;
  /** Default `ffmpeg` from PATH. */
  binary?: string;
}

export function createFfmpegAudioSource(options: FfmpegAudioOptions): AudioSource {
  let proc: ChildProcess | undefined;
  let stopped = false;
  return {
    name: options.name,
    start(handlers: AudioHandlers) {
      stopped = false;
      proc = spawn(options.binary ?? 'ffmpeg', options.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let ended = false;
      const end = (error: string | null) => {
        if (ended || stopped) return;
        ended = true;
        handlers.end(error);
      };
      proc.stdout?.on('data', (chunk: Buffer) => {
        if (!stopped) handlers.pcm(chunk);
      });
      proc.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      proc.on('error', (error) => end(`ffmpeg could not start (${error.message})`));
      proc.on('close', (code, signal) => {
        if (code === 0) return end(null);
        const tail = stderr.trim().split('\n').slice(-2).join(' | ');
        const how = signal ?? `code ${String(code)}`;
        options.log.debug('audio ffmpeg ended', { how, stderr: tail });
        end(`ffmpeg ended (${how})${tail ? `: ${tail}` : ''}`);
      });
    },
    stop() {
      stopped = true;
      proc?.kill('SIGKILL');
      proc = undefined;
    },
  };
}

/** The source a device or file setting names; `realtime` paces a file like a microphone (off in tests). */
export function createSettingSource(
  setting: Exclude<SourceSetting, { kind: 'daemon' }>,
  deps: { log: Log; binary?: string; realtimeFiles?: boolean },
): AudioSource {
  const args = setting.kind === 'file' ? fileArgs(setting.path, deps.realtimeFiles ?? true) : captureArgs(setting.spec);
  return createFfmpegAudioSource({
    name: describeSource(setting),
    args,
    log: deps.log.child('audio'),
    ...(deps.binary ? { binary: deps.binary } : {}),
  });
}
