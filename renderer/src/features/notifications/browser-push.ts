/**
 * This browser's side of Web Push: the service worker at /sw.js, the notification permission,
 * and the push subscription made with the cockpit's VAPID key. Nothing here throws or rejects:
 * every failure is `{ok: false, reason, message}` for the card to show (docs/platform.md, "Web
 * Push" 5). Permission is asked only from enable(), which the card's switch calls: never on load.
 * The browser objects come in through PushEnvironment so the logic is tested with fakes.
 */
import type { PushApi, SubscriptionJson } from './push-api.ts';

export type PushFailure = 'unsupported' | 'insecure' | 'denied' | 'dismissed' | 'worker' | 'subscribe' | 'server';
export type PushOutcome<T = undefined> = { ok: true; value: T } | { ok: false; reason: PushFailure; message: string };

export interface SubscriptionLike {
  endpoint: string;
  options: { applicationServerKey: ArrayBuffer | null };
  toJSON(): SubscriptionJson;
  unsubscribe(): Promise<boolean>;
}

export interface RegistrationLike {
  pushManager: {
    getSubscription(): Promise<SubscriptionLike | null>;
    subscribe(options: {
      userVisibleOnly: boolean;
      applicationServerKey: Uint8Array<ArrayBuffer>;
    }): Promise<SubscriptionLike>;
  };
}

export interface PushEnvironment {
  /** window.isSecureContext: service workers and push need HTTPS or localhost. */
  secure: boolean;
  worker:
    | {
        register(url: string, options: { scope: string }): Promise<unknown>;
        readonly ready: Promise<RegistrationLike>;
        getRegistration(scope: string): Promise<RegistrationLike | undefined>;
      }
    | undefined;
  permission: { state(): NotificationPermission; request(): Promise<NotificationPermission> } | undefined;
  /** 'PushManager' in window. */
  push: boolean;
}

export function browserEnvironment(): PushEnvironment {
  return {
    secure: window.isSecureContext,
    worker: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
    permission:
      typeof Notification === 'undefined'
        ? undefined
        : { state: () => Notification.permission, request: () => Notification.requestPermission() },
    push: 'PushManager' in window,
  };
}

export const WORKER_URL = '/sw.js';
const READY_MS = 10_000;

/** The VAPID key as bytes (base64url, unpadded), or null when it is not a P-256 point. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(base64url)) return null;
  const binary = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.length === 65 && bytes[0] === 4 ? bytes : null;
}

/** Whether a subscription was made with this key (PushSubscriptionOptions.applicationServerKey). */
export function sameKey(made: ArrayBuffer | null, key: Uint8Array): boolean {
  if (!made || made.byteLength !== key.length) return false;
  const bytes = new Uint8Array(made);
  return bytes.every((b, i) => b === key[i]);
}

const fail = (reason: PushFailure, message: string): PushOutcome<never> => ({ ok: false, reason, message });
const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));

/** Why this browser cannot take part at all, or null. */
export function unsupported(env: PushEnvironment): PushOutcome<never> | null {
  if (!env.secure)
    return fail('insecure', 'Notifications need a secure connection: open the dashboard over HTTPS, or on localhost.');
  if (!env.worker || !env.push || !env.permission)
    return fail('unsupported', 'This browser cannot receive push notifications.');
  return null;
}

export interface BrowserPush {
  /** Registers the worker; if this browser is subscribed, re-sends the subscription (re-made when the key changed). Never prompts. */
  refresh(): Promise<PushOutcome<{ subscribed: boolean }>>;
  /** Asks permission (the switch's click), registers, subscribes and tells the cockpit. */
  enable(): Promise<PushOutcome>;
  /** Tells the cockpit to forget this browser and drops the subscription. */
  disable(): Promise<PushOutcome>;
}

export function createBrowserPush(
  env: PushEnvironment,
  api: Pick<PushApi, 'key' | 'subscribe' | 'unsubscribe'>,
): BrowserPush {
  async function register(): Promise<PushOutcome<RegistrationLike>> {
    const worker = env.worker;
    if (!worker) return fail('unsupported', 'This browser cannot receive push notifications.');
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await worker.register(WORKER_URL, { scope: '/' });
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), READY_MS)));
      const ready = await Promise.race([worker.ready, late]);
      return ready ? { ok: true, value: ready } : fail('worker', 'The notification service worker did not start.');
    } catch (error) {
      return fail('worker', `The notification service worker could not start: ${messageOf(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Subscribes (or keeps a subscription made with the current key) and hands it to the cockpit. */
  async function subscribeWith(registration: RegistrationLike): Promise<PushOutcome> {
    const key = await api.key();
    if (!key.ok) return fail('server', `The cockpit did not give its push key: ${key.message}`);
    const bytes = keyBytes(key.data);
    if (!bytes) return fail('server', 'The cockpit sent a push key this browser cannot use.');
    let subscription: SubscriptionLike;
    try {
      const existing = await registration.pushManager.getSubscription();
      // Made with another key (the cockpit's key was re-made): useless, so drop it and re-subscribe.
      if (existing && !sameKey(existing.options.applicationServerKey, bytes)) await existing.unsubscribe();
      subscription =
        existing && sameKey(existing.options.applicationServerKey, bytes)
          ? existing
          : await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
    } catch (error) {
      return fail('subscribe', `The browser's push service refused: ${messageOf(error)}`);
    }
    const saved = await api.subscribe(subscription.toJSON());
    return saved.ok
      ? { ok: true, value: undefined }
      : fail('server', `The cockpit refused the subscription: ${saved.message}`);
  }

  async function askPermission(permission: NonNullable<PushEnvironment['permission']>): Promise<PushOutcome> {
    let state = permission.state();
    try {
      if (state === 'default') state = await permission.request();
    } catch (error) {
      return fail('dismissed', `The browser did not ask for permission: ${messageOf(error)}`);
    }
    if (state === 'granted') return { ok: true, value: undefined };
    return state === 'denied'
      ? fail(
          'denied',
          "Notifications are blocked for this site. Allow them in the browser's site settings, then try again.",
        )
      : fail('dismissed', 'Permission for notifications was not given.');
  }

  return {
    async refresh() {
      const problem = unsupported(env);
      if (problem) return problem;
      const registration = await register();
      if (!registration.ok) return registration;
      try {
        const existing = await registration.value.pushManager.getSubscription();
        if (!existing || env.permission?.state() !== 'granted') return { ok: true, value: { subscribed: false } };
      } catch (error) {
        return fail('subscribe', `The browser's push service did not answer: ${messageOf(error)}`);
      }
      const kept = await subscribeWith(registration.value);
      return kept.ok ? { ok: true, value: { subscribed: true } } : kept;
    },
    async enable() {
      const problem = unsupported(env);
      if (problem) return problem;
      const permission = await askPermission(env.permission as NonNullable<PushEnvironment['permission']>);
      if (!permission.ok) return permission;
      const registration = await register();
      return registration.ok ? subscribeWith(registration.value) : registration;
    },
    async disable() {
      if (!env.worker) return { ok: true, value: undefined };
      try {
        const registration = await env.worker.getRegistration('/');
        const subscription = await registration?.pushManager.getSubscription();
        if (!subscription) return { ok: true, value: undefined };
        const forgotten = await api.unsubscribe(subscription.endpoint);
        await subscription.unsubscribe();
        return forgotten.ok
          ? { ok: true, value: undefined }
          : fail('server', `The cockpit did not answer: ${forgotten.message}`);
      } catch (error) {
        return fail('subscribe', `The browser could not drop the subscription: ${messageOf(error)}`);
      }
    },
  };
}
