import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { createSetupStore, defaultRobotName } from './setup-store.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
});

describe('setup store', () => {
  it("stands in the host's name until named, keeps the name 0600, and re-advertises on a rename only", async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    const store = createSetupStore({ dataDir: temp.dir, log: silentLog, hostName: 'desk-pc.lan' });
    await store.load();
    expect(store.name()).toBe('desk-pc');
    const renamed: string[] = [];
    store.onChange((r) => renamed.push(r.name ?? ''));
    await store.update({ guide: 'dismissed' });
    await store.update({ name: 'Desk robot' });
    await store.update({ guide: 'open' });
    expect(renamed).toEqual(['Desk robot']);
    const file = join(temp.dir, 'robot.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ name: 'Desk robot', guide: 'open' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('starts over from defaults when the file is not a valid record', async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    await writeFile(join(temp.dir, 'robot.json'), JSON.stringify({ name: 'x'.repeat(500), guide: 'open' }));
    const store = createSetupStore({ dataDir: temp.dir, log: silentLog, hostName: 'pc' });
    await store.load();
    expect(store.get()).toEqual({ name: null, guide: 'open' });
    expect(defaultRobotName('\u0007')).toBe('Robot Cockpit');
  });
});
