/**
 * Push's files at start: a disk that refuses the first key pair leaves push off with the reason
 * on its routes, and start() still resolves, so the cockpit starts without its notices.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Health } from '../contract/health.ts';
import { silentLog } from '../log.ts';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { disk } from '../testing/full-disk.ts';
import { createPush } from './push-service.ts';

vi.mock('node:fs/promises', async (importOriginal) => {
  const { withFullDisk } = await import('../testing/full-disk.ts');
  return withFullDisk(await importOriginal());
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('push-start-'));
});
afterEach(async () => {
  disk.full = false;
  await cleanup();
});

it('a full disk when the key pair is first made leaves push off and says why, and start goes on', async () => {
  const push = createPush({
    robot: { health: () => ({}) as Health },
    viewers: () => 0,
    dataDir: dir,
    log: silentLog,
    tickMs: 60_000,
  });
  disk.full = true;
  await expect(push.start()).resolves.toBeUndefined();
  const off = { code: 'STORAGE_FAILED', message: expect.stringMatching(/^push notifications are off: .*ENOSPC/) };
  expect(() => push.publicKey()).toThrow(expect.objectContaining(off));
  expect(() => push.settings('token')).toThrow(expect.objectContaining(off));
  await expect(push.test()).rejects.toMatchObject(off);
  push.stop();
});
