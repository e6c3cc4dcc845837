/**
 * Web Push on a real cockpit (simulator, port 0) against the fake push service: the console
 * routes and their strict edge, delivery that the "browser" decrypts and whose VAPID token checks
 * out, pruning of gone subscriptions, and the notices themselves: a daemon outage (the
 * simulator's backend stopped, a 1 s threshold), a stop pressed by one passkey and pushed to
 * everyone else, a platform notice, and a kind switched off.
 */
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { startCockpit, type Cockpit } from '../../index.ts';
import { silentLog } from '../../log.ts';
import { startFakePushService, type FakePushService, type ReceivedPush } from '../../push/testing/fake-push-service.ts';
import { TEST_TOKEN } from '../../testing/cockpit-harness.ts';

let cockpit: Cockpit;
let service: FakePushService;
let dataDir: string;
let phoneCookie: string;

beforeAll(async () => {
  service = await startFakePushService();
  dataDir = mkdtempSync(join(tmpdir(), 'push-routes-'));
  const config = loadConfig({
    env: {
      ROBOT_HTTPS_PORT: '0',
      ROBOT_TRACK_AUTOSTART: '0',
      ROBOT_THINKER_INTERVAL: '3600',
      ROBOT_RATE_LIMIT: '1000',
      ROBOT_CAMERA: 'off',
    },
    flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
  });
  cockpit = await startCockpit({
    config,
    log: silentLog,
    ownerToken: TEST_TOKEN,
    push: { agent: service.agent, tickMs: 100, timings: { daemonAfterMs: 1000, daemonBackAfterMs: 0 } },
  });
  phoneCookie = (await cockpit.access.sessions.create({ credentialId: 'phone-passkey', ttlSeconds: 600 })).id;
});
afterAll(async () => {
  await cockpit.stop();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** As the owner token, or as the phone's passkey session (a cookie, so it sends its Origin). */
async function call(method: string, path: string, body?: unknown, as: 'token' | 'phone' = 'token') {
  const auth: Record<string, string> =
    as === 'token'
      ? { authorization: `Bearer ${TEST_TOKEN}` }
      : { cookie: `cockpit_session=${phoneCookie}`, origin: cockpit.url };
  const res = await fetch(`${cockpit.url}${path}`, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function subscribed(as: 'token' | 'phone' = 'token') {
  const browser = service.subscribe();
  expect(await call('POST', '/api/console/push/subscribe', { subscription: browser.subscription }, as)).toEqual({
    status: 200,
    json: { ok: true, replaced: false },
  });
  return browser.subscription.endpoint;
}

const to = (endpoint: string, title: string) => (p: ReceivedPush) => p.endpoint === endpoint && p.payload.title === title;
const countTo = (endpoint: string) => service.received.filter((p) => p.endpoint === endpoint).length;

describe('keys and subscriptions', () => {
  it('answers the VAPID public key kept in the data folder (0600)', async () => {
    const { json } = await call('GET', '/api/console/push/key');
    const file = join(dataDir, 'push-vapid.json');
    expect(json.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ publicKey: json.publicKey });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses subscriptions that could never be pushed to', async () => {
    const good = service.subscribe().subscription;
    const p256dh = Buffer.from(good.keys.p256dh, 'base64url');
    const offCurve = Buffer.from(p256dh);
    offCurve[64] = (offCurve[64] as number) ^ 1;
    const bad: unknown[] = [
      {},
      { subscription: { ...good, endpoint: good.endpoint.replace('https:', 'http:') } },
      { subscription: { ...good, endpoint: 'not a url' } },
      { subscription: { ...good, keys: { ...good.keys, p256dh: p256dh.subarray(1).toString('base64url') } } },
      { subscription: { ...good, keys: { ...good.keys, p256dh: offCurve.toString('base64url') } } },
      { subscription: { ...good, keys: { ...good.keys, p256dh: p256dh.toString('base64') } } },
      { subscription: { ...good, keys: { ...good.keys, auth: Buffer.alloc(12).toString('base64url') } } },
      { subscription: { ...good, keys: { ...good.keys, extra: 'x' } } },
      { subscription: good, extra: true },
      { subscription: { ...good, expirationTime: 'soon' } },
    ];
    for (const body of bad) {
      expect(await call('POST', '/api/console/push/subscribe', body)).toMatchObject({
        status: 400,
        json: { code: 'BAD_REQUEST' },
      });
    }
    expect(await call('POST', '/api/console/push/unsubscribe', { endpoint: 'http://x' })).toMatchObject({ status: 400 });
  });

  it('refuses endpoints that are not on a push service: the robot would POST into its own network', async () => {
    const good = service.subscribe().subscription;
    const path = new URL(good.endpoint).pathname;
    const origins = ['https://127.0.0.1:8000', 'https://2130706433', 'https://[::1]', 'https://printer.local', 'https://nas'];
    for (const origin of origins) {
      const { status, json } = await call('POST', '/api/console/push/subscribe', {
        subscription: { ...good, endpoint: `${origin}${path}` },
      });
      expect(status, origin).toBe(400);
      expect(json).toMatchObject({
        code: 'BAD_REQUEST',
        error: expect.stringMatching(/^endpoint must be a push service on the internet, not /),
      });
    }
  });

  it('keeps subscriptions per credential, replaces the same endpoint, forgets on unsubscribe', async () => {
    const before = (await call('GET', '/api/console/push/settings')).json.subscriptions as { total: number };
    const browser = service.subscribe().subscription;
    const body = { subscription: browser };
    expect((await call('POST', '/api/console/push/subscribe', body, 'phone')).json).toEqual({ ok: true, replaced: false });
    expect((await call('POST', '/api/console/push/subscribe', body, 'phone')).json).toEqual({ ok: true, replaced: true });
    expect((await call('GET', '/api/console/push/settings', undefined, 'phone')).json.subscriptions).toEqual({
      total: before.total + 1,
      yours: 1,
    });
    const stored = JSON.parse(readFileSync(join(dataDir, 'push-subscriptions.json'), 'utf8')) as {
      subscriptions: { endpoint: string; credential: string }[];
    };
    expect(stored.subscriptions.find((s) => s.endpoint === browser.endpoint)?.credential).toBe('phone-passkey');
    expect((await call('POST', '/api/console/push/unsubscribe', { endpoint: browser.endpoint })).json).toEqual({ removed: true });
    expect((await call('POST', '/api/console/push/unsubscribe', { endpoint: browser.endpoint })).json).toEqual({
      removed: false,
    });
  });
});

describe('delivery', () => {
  it('sends a test push the browser can decrypt, signed for the push service with the configured subject', async () => {
    const endpoint = await subscribed();
    const result = await call('POST', '/api/console/push/test');
    expect(result).toMatchObject({ status: 200, json: { sent: expect.any(Number), pruned: 0, failed: 0 } });
    const push = await service.next(to(endpoint, 'Robot Cockpit test'));
    const { json: key } = await call('GET', '/api/console/push/key');
    expect(push).toMatchObject({
      payload: { title: 'Robot Cockpit test', body: expect.any(String), url: '/#/settings/notifications', tag: 'test' },
      vapidKey: key.publicKey,
      claims: { aud: service.origin, sub: 'mailto:owner@robot.invalid' },
    });
    expect(push.claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    expect(service.refused).toEqual([]);

    const changed = await call('PUT', '/api/console/push/settings', { subject: 'mailto:robots@example.org' });
    expect(changed.json).toMatchObject({ subject: 'mailto:robots@example.org' });
    await call('POST', '/api/console/push/test');
    const again = await service.next((p) => to(endpoint, 'Robot Cockpit test')(p) && p !== push);
    expect(again.claims.sub).toBe('mailto:robots@example.org');
  });

  it('validates the settings strictly', async () => {
    for (const body of [
      { subject: 'owner@robot.invalid' },
      { subject: 'http://example.org' },
      { subject: 'https://localhost/contact' },
      { kinds: { daemon: 'yes' } },
      { kinds: { weather: true } },
      { colour: 'red' },
    ]) {
      expect(await call('PUT', '/api/console/push/settings', body)).toMatchObject({ status: 400 });
    }
  });

  it('deletes subscriptions the push service calls gone (404, 410), keeps and counts other failures', async () => {
    const gone410 = await subscribed();
    const gone404 = await subscribed('phone');
    const failing = await subscribed();
    service.answer(gone410, 410);
    service.answer(gone404, 404);
    service.answer(failing, 500);
    const { json } = await call('POST', '/api/console/push/test');
    expect(json).toMatchObject({ pruned: 2, failed: 1 });
    const stored = readFileSync(join(dataDir, 'push-subscriptions.json'), 'utf8');
    expect(stored).not.toContain(gone410);
    expect(stored).not.toContain(gone404);
    expect(stored).toContain(failing);
    await call('POST', '/api/console/push/unsubscribe', { endpoint: failing });
  });
});

describe('notices', () => {
  it('tells of a daemon outage past the threshold, and that it is back', async () => {
    const endpoint = await subscribed();
    const sim = (action: string) =>
      fetch(`${cockpit.daemonUrl}/sim/backend`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action }),
      });
    expect((await sim('stop')).status).toBe(200);
    const down = await service.next(to(endpoint, 'Robot daemon stopped'), 10_000);
    expect(down.payload).toEqual({
      title: 'Robot daemon stopped',
      body: 'The robot daemon (the simulator) answers, but its backend has been stopped for over 1 s.',
      url: '/',
      tag: 'daemon',
    });
    expect(down).toMatchObject({ urgency: 'high', topic: 'daemon' });
    expect((await sim('start')).status).toBe(200);
    const back = await service.next(to(endpoint, 'Robot daemon back'), 15_000);
    expect(back.payload.body).toMatch(/^The cockpit is talking to the simulator again, after \d+ s without it\.$/);
  }, 30_000);

  it('pushes a stop to every subscription but the credential that pressed it', async () => {
    const owner = await subscribed('token');
    const phone = await subscribed('phone');
    const phoneBefore = countTo(phone);
    expect((await call('POST', '/api/control/stop', undefined, 'phone')).status).toBe(200);
    const push = await service.next(to(owner, 'STOP engaged'));
    expect(push.payload.body).toMatch(/^A signed-in browser or phone engaged the latched stop\./);
    await cockpit.features.push.idle();
    expect(countTo(phone)).toBe(phoneBefore);
    expect((await call('POST', '/api/console/resume')).status).toBe(200);
  });

  it('passes platform notices on, and sends nothing of a kind switched off', async () => {
    const endpoint = await subscribed();
    cockpit.notify({ title: 'Job done', body: 'The nightly job finished', tag: 'job', url: '/jobs' });
    const notice = await service.next(to(endpoint, 'Job done'));
    expect(notice.payload).toEqual({ title: 'Job done', body: 'The nightly job finished', url: '/jobs', tag: 'platform:job' });

    const off = await call('PUT', '/api/console/push/settings', { kinds: { platform: false } });
    expect(off.json).toMatchObject({ kinds: { platform: false, daemon: true, stop: true } });
    const before = countTo(endpoint);
    cockpit.notify({ title: 'Muted', body: 'not pushed', tag: 'job', url: '/' });
    await cockpit.features.push.idle();
    expect(countTo(endpoint)).toBe(before);
    await call('PUT', '/api/console/push/settings', { kinds: { platform: true } });
  });
});
