/**
 * What push keeps on disk: the VAPID pair made once and kept, subscriptions that outlive a
 * restart, the ones made with a lost key dropped, and the caps per credential.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { createSettingsStore, DEFAULT_SUBJECT, parseSettingsPatch } from './push-settings.ts';
import { createReceiver, subscriptionOf } from './testing/web-push-receiver.ts';
import { parseSubscription } from './subscription-input.ts';
import { createSubscriptionStore, MAX_PER_CREDENTIAL, MAX_TOTAL, SUBSCRIPTIONS_FILE } from './subscriptions.ts';
import { loadVapidKeys, VAPID_FILE } from './vapid-keys.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('push-stores-'));
});
afterEach(() => cleanup());

const input = (n: number) => parseSubscription(subscriptionOf(`https://push.example/s/${n}`, createReceiver()));

describe('VAPID keys', () => {
  it('are made once, kept 0600, and read back the same', async () => {
    const first = await loadVapidKeys({ dataDir: dir, log: silentLog });
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    expect((await stat(join(dir, VAPID_FILE))).mode & 0o777).toBe(0o600);
    expect(await loadVapidKeys({ dataDir: dir, log: silentLog })).toEqual(first);
  });

  it('are made anew when the file is corrupt (set aside), and old subscriptions are dropped', async () => {
    const old = await loadVapidKeys({ dataDir: dir, log: silentLog });
    const store = createSubscriptionStore({ dataDir: dir, log: silentLog });
    await store.load(old.publicKey);
    await store.add('token', input(1));
    await writeFile(join(dir, VAPID_FILE), '{"publicKey": "broken"');
    const fresh = await loadVapidKeys({ dataDir: dir, log: silentLog });
    expect(fresh.publicKey).not.toBe(old.publicKey);
    const reloaded = createSubscriptionStore({ dataDir: dir, log: silentLog });
    await reloaded.load(fresh.publicKey);
    expect(reloaded.list()).toEqual([]);
  });
});

describe('subscriptions', () => {
  it('survive a restart with their credential and key', async () => {
    const store = createSubscriptionStore({ dataDir: dir, log: silentLog, now: () => 1000 });
    await store.load('key-1');
    await store.add('cred-a', input(1));
    await store.add('token', input(2));
    const again = createSubscriptionStore({ dataDir: dir, log: silentLog });
    await again.load('key-1');
    expect(again.list().map((s) => [s.credential, s.endpoint, s.vapidKey, s.createdAt])).toEqual([
      ['cred-a', 'https://push.example/s/1', 'key-1', 1000],
      ['token', 'https://push.example/s/2', 'key-1', 1000],
    ]);
    expect((await stat(join(dir, SUBSCRIPTIONS_FILE))).mode & 0o777).toBe(0o600);
  });

  it('keep the newest few per credential', async () => {
    let t = 0;
    const store = createSubscriptionStore({ dataDir: dir, log: silentLog, now: () => t++ });
    await store.load('key');
    for (let n = 0; n < MAX_PER_CREDENTIAL + 2; n += 1) await store.add('phone', input(n));
    await store.add('token', input(99));
    const phone = store.list().filter((s) => s.credential === 'phone');
    expect(phone).toHaveLength(MAX_PER_CREDENTIAL);
    expect(phone[0]?.endpoint).toBe('https://push.example/s/2');
    expect(store.list().some((s) => s.credential === 'token')).toBe(true);
    expect(await store.remove(['https://push.example/s/2', 'https://push.example/s/99', 'https://elsewhere'])).toBe(2);
    expect(JSON.parse(await readFile(join(dir, SUBSCRIPTIONS_FILE), 'utf8')).subscriptions).toHaveLength(
      MAX_PER_CREDENTIAL - 1,
    );
  });
});

describe('a subscriptions file past the caps', () => {
  it('keeps the newest within the caps at load, so one notice does not open a socket per entry', async () => {
    const entry = (n: number, credential: string) => ({
      ...input(n),
      credential,
      vapidKey: 'key',
      createdAt: n,
    });
    const subscriptions = [
      ...Array.from({ length: 300 }, (_, n) => entry(n, `cred-${n}`)),
      ...Array.from({ length: 20 }, (_, n) => entry(1000 + n, 'phone')),
    ];
    await writeFile(join(dir, SUBSCRIPTIONS_FILE), JSON.stringify({ subscriptions }));
    const store = createSubscriptionStore({ dataDir: dir, log: silentLog });
    await store.load('key');
    expect(store.list()).toHaveLength(MAX_TOTAL);
    expect(store.list().filter((s) => s.credential === 'phone')).toHaveLength(MAX_PER_CREDENTIAL);
    expect(store.list().at(-1)?.endpoint).toBe('https://push.example/s/1019');
    expect(JSON.parse(await readFile(join(dir, SUBSCRIPTIONS_FILE), 'utf8')).subscriptions).toHaveLength(MAX_TOTAL);
  });

  it('drops a damaged entry alone, keeping every whole subscription', async () => {
    const whole = [0, 1, 2].map((n) => ({ ...input(n), credential: 'phone', vapidKey: 'key', createdAt: n }));
    const damaged = [{ ...whole[0], endpoint: 7 }, { credential: 'phone' }, null, 'x'];
    await writeFile(join(dir, SUBSCRIPTIONS_FILE), JSON.stringify({ subscriptions: [...whole, ...damaged] }));
    const store = createSubscriptionStore({ dataDir: dir, log: silentLog });
    await store.load('key');
    expect(store.list().map((s) => s.endpoint)).toEqual(whole.map((s) => s.endpoint));
    // Written back whole, and nothing set aside.
    const file = JSON.parse(await readFile(join(dir, SUBSCRIPTIONS_FILE), 'utf8'));
    expect(file).toEqual({ subscriptions: whole });
    expect((await readdir(dir)).filter((name) => name.startsWith(SUBSCRIPTIONS_FILE))).toEqual([SUBSCRIPTIONS_FILE]);
  });
});

describe('settings', () => {
  it('default to every kind on and the .invalid mailto subject, and take a strict patch', async () => {
    const settings = createSettingsStore({ dataDir: dir, log: silentLog });
    expect(await settings.load()).toEqual({
      subject: DEFAULT_SUBJECT,
      kinds: { daemon: true, camera: true, stop: true, agent: true, platform: true },
    });
    expect(parseSettingsPatch({ subject: ' https://robot.example.org/contact ', kinds: { camera: false } })).toEqual({
      subject: 'https://robot.example.org/contact',
      kinds: { camera: false },
    });
    expect(() => parseSettingsPatch({ subject: 'mailto:nobody' })).toThrow(/subject/);
    expect(() => parseSettingsPatch([])).toThrow(/object/);
  });
});
