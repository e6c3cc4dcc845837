/**
 * The browsers that asked for notices, kept per credential in `<data dir>/push-subscriptions.json`
 * (0600, atomic). A subscription is bound to the VAPID key it was made with (RFC 8292 §4: a push
 * service refuses pushes signed by another), so each remembers that key and the ones made with an
 * older key are dropped at load, as are endpoints that are not on a push service's host
 * (push-destination.ts). The same endpoint subscribing again replaces its old entry: an
 * endpoint is one browser, whatever credential it signs in with now.
 */
import { join } from 'node:path';
import type { Log } from '../log.ts';
import { createJsonDocument } from '../store/json-document.ts';
import { isPushServiceEndpoint } from './push-destination.ts';
import type { SubscriptionInput } from './subscription-input.ts';

export const SUBSCRIPTIONS_FILE = 'push-subscriptions.json';
/** A few browsers and phones per credential; the oldest goes when a new one comes. */
export const MAX_PER_CREDENTIAL = 10;
export const MAX_TOTAL = 100;

export interface StoredSubscription extends SubscriptionInput {
  /** The passkey credential id, or 'token' / 'local-window' (server/push/credential.ts). */
  credential: string;
  vapidKey: string;
  createdAt: number;
}

interface SubscriptionsDoc {
  subscriptions: StoredSubscription[];
}

export interface SubscriptionStore {
  /** Loads the file and forgets subscriptions made with another VAPID key or to a non-push host. */
  load(vapidKey: string): Promise<void>;
  list(): readonly StoredSubscription[];
  /** Adds or replaces (same endpoint); answers whether it replaced one. */
  add(credential: string, input: SubscriptionInput): Promise<{ replaced: boolean }>;
  /** Deletes the endpoints given; answers how many were there. */
  remove(endpoints: readonly string[]): Promise<number>;
}

function isStored(u: unknown): u is StoredSubscription {
  if (typeof u !== 'object' || u === null) return false;
  const s = u as Record<string, unknown>;
  const keys = s.keys as Record<string, unknown> | null | undefined;
  return (
    typeof s.credential === 'string' &&
    typeof s.endpoint === 'string' &&
    typeof s.vapidKey === 'string' &&
    typeof s.createdAt === 'number' &&
    typeof keys === 'object' &&
    keys !== null &&
    typeof keys.p256dh === 'string' &&
    typeof keys.auth === 'string'
  );
}

/**
 * The file's subscriptions that are whole. One entry damaged (a key missing, a field of another
 * type) is dropped alone: setting the whole file aside for it dropped every browser's
 * subscription, and each had to subscribe again before it heard of anything.
 */
function validate(u: unknown): (SubscriptionsDoc & { damaged: number }) | undefined {
  if (typeof u !== 'object' || u === null || !Array.isArray((u as SubscriptionsDoc).subscriptions)) return undefined;
  const list = (u as { subscriptions: unknown[] }).subscriptions;
  const whole = list.filter(isStored);
  return { subscriptions: whole, damaged: list.length - whole.length };
}

/** Keeps the newest MAX_PER_CREDENTIAL per credential and MAX_TOTAL overall. */
function capped(list: StoredSubscription[]): StoredSubscription[] {
  // Later in the list wins a tie: it was added after the one beside it.
  const newestFirst = list
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.createdAt - a.s.createdAt || b.i - a.i)
    .map(({ s }) => s);
  const perCredential = new Map<string, number>();
  const kept = newestFirst.filter((s) => {
    const n = (perCredential.get(s.credential) ?? 0) + 1;
    perCredential.set(s.credential, n);
    return n <= MAX_PER_CREDENTIAL;
  });
  return kept.slice(0, MAX_TOTAL).reverse();
}

export function createSubscriptionStore(deps: { dataDir: string; log: Log; now?: () => number }): SubscriptionStore {
  const now = deps.now ?? Date.now;
  const doc = createJsonDocument<SubscriptionsDoc & { damaged?: number }>({
    file: join(deps.dataDir, SUBSCRIPTIONS_FILE),
    defaults: () => ({ subscriptions: [] }),
    validate,
    log: deps.log,
  });
  let vapidKey = '';
  return {
    async load(key) {
      vapidKey = key;
      const { subscriptions, damaged = 0 } = await doc.load();
      if (damaged > 0) deps.log.warn('dropped push subscriptions the file holds damaged', { count: damaged });
      const current = subscriptions.filter((s) => s.vapidKey === key);
      if (current.length < subscriptions.length)
        deps.log.info('dropped push subscriptions made with an older VAPID key', {
          count: subscriptions.length - current.length,
        });
      // Kept by a version that took any https endpoint: the robot sends only to push services.
      const servable = current.filter((s) => isPushServiceEndpoint(s.endpoint));
      if (servable.length < current.length)
        deps.log.info('dropped push subscriptions to hosts that are not push services', {
          count: current.length - servable.length,
        });
      // The caps hold for a file written by hand or by another program too: every notice is sent
      // to each subscription at once, so thousands of them were thousands of sockets per notice.
      const kept = capped(servable);
      if (kept.length < servable.length)
        deps.log.warn('dropped the oldest push subscriptions past the caps', { count: servable.length - kept.length });
      if (kept.length < subscriptions.length || damaged > 0) await doc.save({ subscriptions: kept });
    },
    list: () => doc.get().subscriptions,
    async add(credential, input) {
      let replaced = false;
      await doc.update(({ subscriptions }) => {
        const others = subscriptions.filter((s) => s.endpoint !== input.endpoint);
        replaced = others.length !== subscriptions.length;
        const entry: StoredSubscription = {
          credential,
          endpoint: input.endpoint,
          keys: { p256dh: input.keys.p256dh, auth: input.keys.auth },
          vapidKey,
          createdAt: now(),
        };
        return { subscriptions: capped([...others, entry]) };
      });
      return { replaced };
    },
    async remove(endpoints) {
      const gone = new Set(endpoints);
      let removed = 0;
      const { subscriptions } = doc.get();
      if (!subscriptions.some((s) => gone.has(s.endpoint))) return 0;
      await doc.update((cur) => {
        const kept = cur.subscriptions.filter((s) => !gone.has(s.endpoint));
        removed = cur.subscriptions.length - kept.length;
        return { subscriptions: kept };
      });
      return removed;
    },
  };
}
