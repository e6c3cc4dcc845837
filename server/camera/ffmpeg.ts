/**
 * One ffmpeg child process with byte streams in and out. The camera uses it to decode H.264
 * to MJPEG and to read local capture devices. Its stderr is kept (the last lines) to say why
 * it ended; nothing of it reaches the console.
 */
import { spawn } from 'node:child_process';
import type { Log } from '../log.ts';

export interface FfmpegOptions {
  args: string[];
  log: Log;
  onStdout(chunk: Buffer): void;
  /** Called once when the process ends by itself (not after stop()), or fails to start. */
  onExit(reason: string): void;
  /** Default `ffmpeg` from PATH. */
  binary?: string;
}

export interface FfmpegProcess {
  /** Writes to stdin; `done` runs once ffmpeg's pipe took the bytes. */
  write(data: Buffer, done?: () => void): void;
  stop(): void;
}

const STDERR_TAIL = 2000;

export function spawnFfmpeg(options: FfmpegOptions): FfmpegProcess {
  const proc = spawn(options.binary ?? 'ffmpeg', options.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let stopped = false;
  let ended = false;
  const end = (reason: string): void => {
    if (ended) return;
    ended = true;
    if (stopped) return;
    const tail = stderr.trim().split('\n').slice(-3).join(' | ');
    options.log.debug('ffmpeg ended', { reason, stderr: tail });
    options.onExit(tail ? `${reason}: ${tail}` : reason);
  };
  proc.stdout.on('data', (chunk: Buffer) => {
    if (!stopped) options.onStdout(chunk);
  });
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  // A write after the process died fails with EPIPE; its end is reported through 'exit'.
  proc.stdin.on('error', () => {});
  proc.on('error', (error) => end(`ffmpeg could not start (${error.message})`));
  proc.on('exit', (code, signal) => end(`ffmpeg exited (${signal ?? `code ${String(code)}`})`));

  return {
    write(data, done) {
      if (stopped || ended) return;
      proc.stdin.write(data, () => done?.());
    },
    stop() {
      if (stopped) return;
      stopped = true;
      proc.stdin.destroy();
      proc.kill('SIGKILL');
    },
  };
}
