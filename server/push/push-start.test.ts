/**
 * Push's files on a full disk: at start, a disk that refuses the first key pair leaves push off
 * with the reason on its routes, and start() still resolves, so the cockpit starts without its
 * notices; later, a change the disk refuses answers STORAGE_FAILED (503), not a bare 500.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Health } from '../contract/health.ts';
import { silentLog } from '../log.ts';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { disk } from '../testing/full-disk.ts';
import { createPush } from './push-service.ts';
import { parseSubscription } from './subscription-input.ts';
import { createReceiver, subscriptionOf } from './testing/web-push-receiver.ts';

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

const start = () =>
  createPush({
    robot: { health: () => ({}) as Health },
    viewers: () => 0,
    dataDir: dir,
    log: silentLog,
    tickMs: 60_000,
  });

it('a full disk when the key pair is first made leaves push off and says why, and start goes on', async () => {
  const push = start();
  disk.full = true;
  await expect(push.start()).resolves.toBeUndefined();
  const off = { code: 'STORAGE_FAILED', message: expect.stringMatching(/^push notifications are off: .*ENOSPC/) };
  expect(() => push.publicKey()).toThrow(expect.objectContaining(off));
  expect(() => push.settings('token')).toThrow(expect.objectContaining(off));
  await expect(push.test()).rejects.toMatchObject(off);
  push.stop();
});

it('a subscription or a setting the full disk refuses answers STORAGE_FAILED, and nothing changes', async () => {
  const push = start();
  await push.start();
  const input = parseSubscription(subscriptionOf('https://push.example/s/1', createReceiver()));
  await push.subscribe('token', input);
  disk.full = true;
  const refused = {
    code: 'STORAGE_FAILED',
    message: expect.stringMatching(/nothing changed: the disk answered ENOSPC$/),
  };
  const other = parseSubscription(subscriptionOf('https://push.example/s/2', createReceiver()));
  await expect(push.subscribe('token', other)).rejects.toMatchObject(refused);
  await expect(push.unsubscribe('https://push.example/s/1')).rejects.toMatchObject(refused);
  await expect(push.updateSettings('token', { kinds: { camera: false } })).rejects.toMatchObject(refused);
  expect(push.settings('token')).toMatchObject({ kinds: { camera: true }, subscriptions: { total: 1 } });
  push.stop();
});
