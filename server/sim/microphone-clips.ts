/**
 * What /sim/microphone makes the robot hear, as PCM16 LE mono 48 kHz: a sentence spoken by
 * espeak-ng, or an audio file decoded by ffmpeg (any format it reads).
 */
import { spawn } from 'node:child_process';
import { MIC_RATE } from './microphone.ts';

const TO_PCM = ['-f', 's16le', '-ac', '1', '-ar', String(MIC_RATE), 'pipe:1'];
/** Longest clip accepted: a minute of audio. */
const MAX_BYTES = 60 * MIC_RATE * 2;

function run(binary: string, args: string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const proc = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    proc.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-500)));
    proc.stdin.on('error', () => {});
    proc.on('error', (error) => reject(new Error(`${binary} could not start: ${error.message}`)));
    proc.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${binary} failed: ${stderr.trim() || code}`)),
    );
    proc.stdin.end(input);
  });
}

function capped(pcm: Buffer): Buffer {
  return pcm.length > MAX_BYTES ? pcm.subarray(0, MAX_BYTES) : pcm;
}

/** espeak-ng's voice saying `text`, resampled for the microphone. */
export async function spokenClip(text: string): Promise<Buffer> {
  const wav = await run('espeak-ng', ['--stdout', '--', text]);
  return capped(
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', ...TO_PCM], wav),
  );
}

/** A file on this host, decoded for the microphone. */
export async function fileClip(path: string): Promise<Buffer> {
  return capped(await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', path, ...TO_PCM]));
}
