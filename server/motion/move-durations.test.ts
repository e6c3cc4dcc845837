/** Move lengths: the daemon's files first, then what whole plays measured, kept across restarts. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createMoveDurations } from './move-durations.ts';

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'move-durations-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const DATASET = 'pollen-robotics/emotions';

describe('move durations', () => {
  it('learns a length from a whole play and keeps it across a restart', async () => {
    const dataDir = temp();
    const first = createMoveDurations({ dataDir, hubCache: null, datasets: [DATASET], log: silentLog });
    await first.load();
    expect(first.seconds(DATASET, 'yes1')).toBeNull();
    first.learn(DATASET, 'yes1', 2.345);
    expect(first.seconds(DATASET, 'yes1')).toBe(2.3);
    const file = join(dataDir, 'move-durations.json');
    await eventually(() => existsSync(file) && readFileSync(file, 'utf8').includes('yes1'), {
      what: 'the saved length',
    });
    const again = createMoveDurations({ dataDir, hubCache: null, datasets: [DATASET], log: silentLog });
    await again.load();
    expect(again.seconds(DATASET, 'yes1')).toBe(2.3);
  });

  it("prefers the daemon's own file to a measured play, and ignores implausible plays", async () => {
    const hub = temp();
    const snapshot = join(hub, 'datasets--pollen-robotics--emotions', 'snapshots', 'r1');
    mkdirSync(snapshot, { recursive: true });
    writeFileSync(
      join(snapshot, 'no1.json'),
      JSON.stringify({ time: [0, 1, 2, 3, 4], set_target_data: [{}, {}, {}, {}, {}] }),
    );
    const durations = createMoveDurations({ hubCache: hub, datasets: [DATASET], log: silentLog });
    await durations.load();
    expect(durations.seconds(DATASET, 'no1')).toBe(4);
    durations.learn(DATASET, 'no1', 7);
    expect(durations.seconds(DATASET, 'no1')).toBe(4);
    durations.learn(DATASET, 'tiny', 0.05);
    durations.learn(DATASET, 'endless', 600);
    expect(durations.seconds(DATASET, 'tiny')).toBeNull();
    expect(durations.seconds(DATASET, 'endless')).toBeNull();
  });

  it('keeps a length learned before the stored ones were read', async () => {
    const dataDir = temp();
    writeFileSync(join(dataDir, 'move-durations.json'), JSON.stringify({ moves: { [`${DATASET}/old1`]: 3 } }));
    const durations = createMoveDurations({ dataDir, hubCache: null, datasets: [DATASET], log: silentLog });
    durations.learn(DATASET, 'new1', 1.5);
    await durations.load();
    expect(durations.seconds(DATASET, 'old1')).toBe(3);
    expect(durations.seconds(DATASET, 'new1')).toBe(1.5);
  });

  it('still loads, with no stored lengths, when the stored file cannot be read', async () => {
    const dataDir = temp();
    // A folder where the file should be: reading it fails (EISDIR), which must not fail the library.
    mkdirSync(join(dataDir, 'move-durations.json'));
    const durations = createMoveDurations({ dataDir, hubCache: null, datasets: [DATASET], log: silentLog });
    await expect(durations.load()).resolves.toBeUndefined();
    expect(durations.seconds(DATASET, 'yes1')).toBeNull();
  });
});
