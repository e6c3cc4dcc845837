/**
 * espeak-ng as the speech engine. The text travels as ONE argv entry after `--` (so a text that
 * starts with `-` is spoken, not parsed as an option), through execFile: there is no shell
 * anywhere to interpret it. A timeout and an output cap bound the child process.
 */
import { execFile } from 'node:child_process';
import { AppError } from '../errors.ts';
import type { SpeechClip, SpeechEngine } from './engine.ts';
import { readWavInfo, repairWav } from './wav.ts';

export interface EspeakOptions {
  /** The binary; Debian installs it at /usr/bin/espeak-ng. */
  command?: string;
  /** espeak-ng voice name, e.g. `en-us`; its default when absent. */
  voice?: string;
  wordsPerMinute?: number;
  timeoutMs?: number;
}

/** 1000 characters come out at about a minute, ~2.6 MB of 22 kHz mono; room to spare. */
const MAX_OUTPUT = 16 * 1024 * 1024;

export function createEspeakEngine(options: EspeakOptions = {}): SpeechEngine {
  const command = options.command ?? 'espeak-ng';
  const timeout = options.timeoutMs ?? 15_000;
  const flags = [
    ...(options.voice ? ['-v', options.voice] : []),
    ...(options.wordsPerMinute ? ['-s', String(options.wordsPerMinute)] : []),
  ];
  return {
    name: 'espeak-ng',
    synthesize(text, signal) {
      return new Promise<SpeechClip>((resolve, reject) => {
        // No argv entry can carry a NUL (the spawn is refused): a model's answer with one (the
        // offline voice speaks answers as they come) is spoken with a space in its place.
        const args = [...flags, '--stdout', '--', text.replaceAll('\0', ' ')];
        execFile(
          command,
          args,
          { encoding: 'buffer', maxBuffer: MAX_OUTPUT, timeout, signal },
          (err, stdout, stderr) => {
            if (err) return reject(engineError(err, stderr, timeout));
            try {
              const wav = repairWav(stdout);
              resolve({ wav, seconds: readWavInfo(wav).seconds });
            } catch (parseErr) {
              reject(
                new AppError('NOT_CONFIGURED', `espeak-ng produced no usable audio: ${(parseErr as Error).message}`),
              );
            }
          },
        );
      });
    },
  };
}

function engineError(err: Error & { code?: unknown; killed?: boolean }, stderr: Buffer, timeout: number): AppError {
  if (err.name === 'AbortError') return new AppError('CONFLICT', 'speech interrupted by a newer utterance or the stop');
  if (err.code === 'ENOENT') return new AppError('NOT_CONFIGURED', 'the speech engine espeak-ng is not installed');
  // Node kills the process, and says `killed`, for a full output buffer as for the timeout.
  if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
    return new AppError('NOT_CONFIGURED', `espeak-ng wrote more than ${MAX_OUTPUT / (1024 * 1024)} MiB of audio`);
  if (err.killed) return new AppError('TIMEOUT', `espeak-ng did not finish within ${timeout} ms`);
  const detail = stderr.toString('utf8').trim().slice(0, 200) || err.message;
  return new AppError('NOT_CONFIGURED', `espeak-ng failed: ${detail}`);
}
