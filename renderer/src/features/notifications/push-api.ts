/**
 * The Web Push console routes (server/push/README-push.md) as the notifications card calls them,
 * through the session's HTTP client (lib/api does the fetching). Answers are checked at the edge:
 * the cockpit's shapes are read, not trusted.
 */
import type { PushKind, PushSettingsPatch, PushSettingsView, SendResult } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

// The shapes are the contract's (server/contract/push.ts); the card takes them from here with the calls.
export type { PushKind, PushSettingsView, SendResult };

// A record, so the compiler insists on every PushKind of the contract and nothing else; the order is the card's.
const KINDS: Record<PushKind, true> = { daemon: true, camera: true, stop: true, agent: true, platform: true };
export const PUSH_KINDS = Object.keys(KINDS) as readonly PushKind[];

/** What PushSubscription.toJSON() gives; sent as it is. */
export interface SubscriptionJson {
  endpoint?: string;
  expirationTime?: number | null;
  keys?: Record<string, string>;
}

export interface PushApi {
  /** The VAPID public key, base64url. */
  key(): Promise<ApiResult<string>>;
  subscribe(subscription: SubscriptionJson): Promise<ApiResult<unknown>>;
  unsubscribe(endpoint: string): Promise<ApiResult<unknown>>;
  test(): Promise<ApiResult<SendResult>>;
  settings(): Promise<ApiResult<PushSettingsView>>;
  saveSettings(patch: PushSettingsPatch): Promise<ApiResult<PushSettingsView>>;
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const count = (u: unknown): number => (typeof u === 'number' && Number.isInteger(u) && u >= 0 ? u : 0);

export function readSettings(u: unknown): PushSettingsView | null {
  if (!isRecord(u) || typeof u.subject !== 'string' || !isRecord(u.kinds)) return null;
  const kinds = u.kinds;
  const subs = isRecord(u.subscriptions) ? u.subscriptions : {};
  return {
    subject: u.subject,
    kinds: Object.fromEntries(PUSH_KINDS.map((k) => [k, kinds[k] !== false])) as Record<PushKind, boolean>,
    subscriptions: { total: count(subs.total), yours: count(subs.yours) },
  };
}

/** A 200 whose body is not the expected shape, as a failure the card can show. */
function shaped<T>(result: ApiResult<unknown>, read: (u: unknown) => T | null): ApiResult<T> {
  if (!result.ok) return result;
  const value = read(result.data);
  return value === null
    ? { ok: false, status: result.status, code: 'BAD_ANSWER', message: 'The cockpit answered in an unexpected shape.' }
    : { ok: true, status: result.status, data: value };
}

export function createPushApi(http: HttpClient): PushApi {
  return {
    async key() {
      const result = await http.request<unknown>('/api/console/push/key');
      return shaped(result, (u) => (isRecord(u) && typeof u.publicKey === 'string' ? u.publicKey : null));
    },
    subscribe: (subscription) =>
      http.request('/api/console/push/subscribe', { method: 'POST', body: { subscription } }),
    unsubscribe: (endpoint) => http.request('/api/console/push/unsubscribe', { method: 'POST', body: { endpoint } }),
    async test() {
      const result = await http.request<unknown>('/api/console/push/test', { method: 'POST' });
      return shaped(result, (u) =>
        isRecord(u) ? { sent: count(u.sent), pruned: count(u.pruned), failed: count(u.failed) } : null,
      );
    },
    async settings() {
      return shaped(await http.request<unknown>('/api/console/push/settings'), readSettings);
    },
    async saveSettings(patch) {
      return shaped(
        await http.request<unknown>('/api/console/push/settings', { method: 'PUT', body: patch }),
        readSettings,
      );
    },
  };
}
