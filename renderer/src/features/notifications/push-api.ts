/**
 * The Web Push console routes (server/push/README-push.md) as the notifications card calls them,
 * through the session's HTTP client (lib/api does the fetching). Answers are checked at the edge:
 * the cockpit's shapes are read, not trusted.
 */
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

export const PUSH_KINDS = ['daemon', 'camera', 'stop', 'agent', 'platform'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export interface PushSettings {
  subject: string;
  kinds: Record<PushKind, boolean>;
  subscriptions: { total: number; yours: number };
}

export interface SendResult {
  sent: number;
  pruned: number;
  failed: number;
}

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
  settings(): Promise<ApiResult<PushSettings>>;
  saveSettings(patch: {
    subject?: string;
    kinds?: Partial<Record<PushKind, boolean>>;
  }): Promise<ApiResult<PushSettings>>;
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const count = (u: unknown): number => (typeof u === 'number' && Number.isInteger(u) && u >= 0 ? u : 0);

export function readSettings(u: unknown): PushSettings | null {
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
