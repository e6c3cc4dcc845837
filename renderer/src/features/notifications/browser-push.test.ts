/**
 * The browser side with fake browser objects: permission only on enable, refusals reported as
 * values, a subscription made with an old key re-made, and the cockpit told each time.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../lib/api/api-result.ts';
import { createBrowserPush, keyBytes, sameKey, type PushEnvironment, type SubscriptionLike } from './browser-push.ts';
import type { PushApi, SubscriptionJson } from './push-api.ts';

const KEY_A = `B${'A'.repeat(86)}`;
const KEY_B = `BA${'Q'.repeat(85)}`;

function fakeBrowser(
  options: { permission?: NotificationPermission; answer?: NotificationPermission; subscribeFails?: string } = {},
) {
  let permission: NotificationPermission = options.permission ?? 'default';
  const asked: string[] = [];
  let current: (SubscriptionLike & { key: string }) | null = null;
  let made = 0;
  const makeSubscription = (key: Uint8Array): SubscriptionLike & { key: string } => {
    made += 1;
    const endpoint = `https://push.example/${made}`;
    const sub = {
      endpoint,
      key: String(made),
      options: { applicationServerKey: key.slice().buffer as ArrayBuffer },
      toJSON: (): SubscriptionJson => ({ endpoint, expirationTime: null, keys: { p256dh: 'p', auth: 'a' } }),
      unsubscribe: async () => {
        current = null;
        return true;
      },
    };
    return sub;
  };
  const registration = {
    pushManager: {
      getSubscription: async () => current,
      async subscribe(o: { userVisibleOnly: boolean; applicationServerKey: Uint8Array<ArrayBuffer> }) {
        asked.push(`subscribe userVisibleOnly=${o.userVisibleOnly}`);
        if (options.subscribeFails) throw new Error(options.subscribeFails);
        current = makeSubscription(o.applicationServerKey);
        return current;
      },
    },
  };
  let registered = false;
  const env: PushEnvironment = {
    secure: true,
    push: true,
    worker: {
      async register(url, o) {
        asked.push(`register ${url} ${o.scope}`);
        registered = true;
      },
      get ready() {
        return Promise.resolve(registration);
      },
      getRegistration: async () => (registered ? registration : undefined),
    },
    permission: {
      state: () => permission,
      async request() {
        asked.push('permission');
        permission = options.answer ?? 'granted';
        return permission;
      },
    },
  };
  return { env, asked, current: () => current };
}

function fakeApi(key = KEY_A) {
  const calls: string[] = [];
  const ok = <T>(data: T): ApiResult<T> => ({ ok: true, status: 200, data });
  const api: Pick<PushApi, 'key' | 'subscribe' | 'unsubscribe'> & { setKey(k: string): void } = {
    setKey: (k) => void (key = k),
    key: async () => ok(key),
    subscribe: async (s) => (calls.push(`subscribe ${s.endpoint}`), ok({})),
    unsubscribe: async (e) => (calls.push(`unsubscribe ${e}`), ok({ removed: true })),
  };
  return { api, calls };
}

describe('keys', () => {
  it('reads a base64url P-256 key and compares it with a subscription key', () => {
    const bytes = keyBytes(KEY_A);
    expect(bytes).toHaveLength(65);
    expect(keyBytes('not+base64url')).toBeNull();
    expect(keyBytes('AAAA')).toBeNull();
    expect(sameKey((bytes as Uint8Array).slice().buffer, bytes as Uint8Array)).toBe(true);
    expect(sameKey((keyBytes(KEY_B) as Uint8Array).slice().buffer, bytes as Uint8Array)).toBe(false);
    expect(sameKey(null, bytes as Uint8Array)).toBe(false);
  });
});

describe('browser push', () => {
  it('registers /sw.js on load without asking for permission', async () => {
    const browser = fakeBrowser();
    const { api, calls } = fakeApi();
    expect(await createBrowserPush(browser.env, api).refresh()).toEqual({ ok: true, value: { subscribed: false } });
    expect(browser.asked).toEqual(['register /sw.js /']);
    expect(calls).toEqual([]);
  });

  it('asks permission on enable, subscribes with userVisibleOnly and tells the cockpit', async () => {
    const browser = fakeBrowser();
    const { api, calls } = fakeApi();
    expect(await createBrowserPush(browser.env, api).enable()).toEqual({ ok: true, value: undefined });
    expect(browser.asked).toEqual(['permission', 'register /sw.js /', 'subscribe userVisibleOnly=true']);
    expect(calls).toEqual(['subscribe https://push.example/1']);
  });

  it('reports a refused or dismissed permission as a value, and subscribes nothing', async () => {
    for (const [answer, reason] of [
      ['denied', 'denied'],
      ['default', 'dismissed'],
    ] as const) {
      const browser = fakeBrowser({ answer });
      const { api, calls } = fakeApi();
      const outcome = await createBrowserPush(browser.env, api).enable();
      expect(outcome).toMatchObject({ ok: false, reason });
      expect(browser.asked).toEqual(['permission']);
      expect(calls).toEqual([]);
    }
    const blocked = fakeBrowser({ permission: 'denied' });
    expect(await createBrowserPush(blocked.env, fakeApi().api).enable()).toMatchObject({
      ok: false,
      reason: 'denied',
      message: expect.stringMatching(/blocked/),
    });
    expect(blocked.asked).toEqual([]);
  });

  it('re-makes a subscription made with an older key, on the next load', async () => {
    const browser = fakeBrowser();
    const { api, calls } = fakeApi(KEY_A);
    const push = createBrowserPush(browser.env, api);
    await push.enable();
    expect(await push.refresh()).toEqual({ ok: true, value: { subscribed: true } });
    expect(browser.current()?.endpoint).toBe('https://push.example/1');
    api.setKey(KEY_B);
    expect(await push.refresh()).toEqual({ ok: true, value: { subscribed: true } });
    expect(browser.current()?.endpoint).toBe('https://push.example/2');
    expect(calls).toEqual([
      'subscribe https://push.example/1',
      'subscribe https://push.example/1',
      'subscribe https://push.example/2',
    ]);
  });

  it('reports a push service that refuses, an insecure page and a browser without push', async () => {
    const refusing = fakeBrowser({ subscribeFails: 'push service error' });
    expect(await createBrowserPush(refusing.env, fakeApi().api).enable()).toEqual({
      ok: false,
      reason: 'subscribe',
      message: "The browser's push service refused: push service error",
    });
    const { env } = fakeBrowser();
    expect(await createBrowserPush({ ...env, secure: false }, fakeApi().api).enable()).toMatchObject({
      reason: 'insecure',
    });
    expect(await createBrowserPush({ ...env, worker: undefined }, fakeApi().api).refresh()).toMatchObject({
      reason: 'unsupported',
    });
  });

  it('forgets this browser on disable', async () => {
    const browser = fakeBrowser();
    const { api, calls } = fakeApi();
    const push = createBrowserPush(browser.env, api);
    await push.enable();
    expect(await push.disable()).toEqual({ ok: true, value: undefined });
    expect(browser.current()).toBeNull();
    expect(calls.at(-1)).toBe('unsubscribe https://push.example/1');
  });
});
