/** The daemon's move files read from a hub cache laid out as the daemon's hub library lays it out. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hubCacheDir, moveFileSeconds, readDatasetSeconds } from './hub-move-files.ts';

const hub = mkdtempSync(join(tmpdir(), 'hub-cache-'));
afterAll(() => rmSync(hub, { recursive: true, force: true }));

/** A move of `samples` samples spread over `seconds`, as the recorded files have them. */
function move(samples: number, seconds: number): string {
  const time = Array.from({ length: samples }, (_, i) => (i * seconds) / (samples - 1));
  return JSON.stringify({ description: 'x', time, set_target_data: time.map(() => ({ antennas: [0, 0] })) });
}

function dataset(name: string, files: Record<string, string>, options: { ref?: string; revision?: string } = {}): void {
  const root = join(hub, `datasets--${name.replace('/', '--')}`);
  const revision = options.revision ?? 'abc123';
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, 'snapshots', revision, file.includes('/') ? 'data' : ''), { recursive: true });
    writeFileSync(join(root, 'snapshots', revision, file), text);
  }
  if (options.ref) {
    mkdirSync(join(root, 'refs'), { recursive: true });
    writeFileSync(join(root, 'refs', 'main'), `${options.ref}\n`);
  }
}

describe('the daemon move files in the hub cache', () => {
  it('computes a move length as the daemon does: samples × span / times', () => {
    expect(moveFileSeconds(JSON.parse(move(101, 2)))).toBeCloseTo(2, 6);
    // One target fewer than times: the daemon's length is a little shorter than the span.
    const short = { time: [0, 1, 2, 3], set_target_data: [{}, {}, {}] };
    expect(moveFileSeconds(short)).toBeCloseTo(2.25, 6);
    for (const notAMove of [
      null,
      {},
      { time: [0], set_target_data: [{}] },
      { time: [1, 0], set_target_data: [{}, {}] },
      { time: 'x', set_target_data: [] },
      // A span too long for a number: Infinity, which JSON would send as null.
      { time: [-1e308, 1e308], set_target_data: [{}, {}] },
    ]) {
      expect(moveFileSeconds(notAMove)).toBeNull();
    }
  });

  it('reads every move of the revision refs/main names, top level and data/, and skips what is not a move', async () => {
    dataset(
      'pollen-robotics/emotions',
      { 'yes1.json': move(50, 1.5), 'data/dance2.json': move(300, 9), 'README.json': '{"a":1}', 'broken.json': '{' },
      { ref: 'abc123' },
    );
    // An older revision with other lengths is not what the daemon plays.
    dataset('pollen-robotics/emotions', { 'yes1.json': move(50, 4) }, { revision: 'old999' });
    const seconds = await readDatasetSeconds(hub, 'pollen-robotics/emotions');
    expect([...seconds.keys()].sort()).toEqual(['dance2', 'yes1']);
    expect(seconds.get('yes1')).toBeCloseTo(1.5, 6);
    expect(seconds.get('dance2')).toBeCloseTo(9, 6);
  });

  it('takes the only snapshot when there is no ref, and finds nothing for a dataset not in the cache', async () => {
    dataset('pollen-robotics/dances', { 'groovy1.json': move(20, 3) });
    expect((await readDatasetSeconds(hub, 'pollen-robotics/dances')).get('groovy1')).toBeCloseTo(3, 6);
    expect((await readDatasetSeconds(hub, 'pollen-robotics/absent')).size).toBe(0);
  });

  it('finds the cache where the hub library does: HF_HUB_CACHE, then HF_HOME/hub, then the user cache', () => {
    expect(hubCacheDir({ HF_HUB_CACHE: '/a', HF_HOME: '/b' })).toBe('/a');
    expect(hubCacheDir({ HF_HOME: '/b' })).toBe('/b/hub');
    expect(hubCacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/huggingface/hub');
  });
});
