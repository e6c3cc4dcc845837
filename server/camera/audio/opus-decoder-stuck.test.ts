/**
 * A microphone decoder that takes audio in and gives nothing out (an ffmpeg that hangs, or has
 * stopped reading its input) is ended and reported, so the microphone tap starts a fresh one;
 * the audio meant for it never piles up in this process. The stand-in decoder records its
 * process id and sleeps without reading a byte.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { waitFor } from '../../sim/test-helpers.ts';
import { startOpusDecoder } from './opus-decoder.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stuckDecoder(): { binary: string; pid(): number } {
  const dir = mkdtempSync(join(tmpdir(), 'cockpit-stuck-ffmpeg-'));
  dirs.push(dir);
  const binary = join(dir, 'ffmpeg');
  writeFileSync(binary, `#!/bin/sh\necho $$ > "${dir}/pid"\nexec sleep 600\n`);
  chmodSync(binary, 0o755);
  return { binary, pid: () => Number(readFileSync(join(dir, 'pid'), 'utf8')) };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('ends a decoder that gives no PCM for three seconds of audio written, and kills its process', async () => {
  const stuck = stuckDecoder();
  const exits: string[] = [];
  const decoder = startOpusDecoder({
    log: silentLog,
    onPcm: () => {},
    onExit: (reason) => exits.push(reason),
    ffmpegBinary: stuck.binary,
  });
  try {
    const packet = Buffer.alloc(200, 0xfc); // CELT FB 20 ms: 960 samples at 48 kHz
    const pid = await waitFor(() => stuck.pid() || undefined).catch(() => 0);
    expect(pid).toBeGreaterThan(0);
    // Three seconds of audio is 150 packets; nothing came out of the decoder meanwhile.
    for (let i = 0; i < 150; i += 1) decoder.write(packet, 960);
    expect(exits).toEqual([]);
    decoder.write(packet, 960);
    expect(exits).toHaveLength(1);
    expect(exits[0]).toMatch(/behind/);
    await waitFor(() => !alive(pid));
  } finally {
    decoder.close();
  }
});
