/**
 * Subscriptions as the browser hands them over (PushSubscription.toJSON(): endpoint,
 * expirationTime, keys {p256dh, auth}), checked strictly at the edge: an https endpoint on a push
 * service's host (push-destination.ts; unsubscribing takes any https endpoint), the receiver's
 * P-256 public key as an uncompressed point on the curve (65 bytes, RFC 8291 §3.1) and a 16-byte
 * authentication secret (§3.2), both unpadded base64url. Anything else is a 400:
 * a subscription that cannot be encrypted to would fail on every push instead.
 */
import { ECDH } from 'node:crypto';
import { badRequest } from '../errors.ts';
import { decodeBase64Url } from './base64url.ts';
import { pushHostProblem } from './push-destination.ts';

export const ENDPOINT_LIMIT = 2048;

export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

function record(u: unknown, name: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) throw badRequest(`${name} must be a JSON object`);
  const extra = Object.keys(u).filter((key) => !allowed.includes(key));
  if (extra.length > 0) throw badRequest(`${name}: unknown field ${extra[0]}`);
  return u as Record<string, unknown>;
}

/** The endpoint as the browser sent it, or a 400 saying why it cannot be a push service. */
export function parseEndpoint(u: unknown): string {
  if (typeof u !== 'string' || u === '') throw badRequest('endpoint must be a non-empty string');
  if (u.length > ENDPOINT_LIMIT) throw badRequest(`endpoint must be at most ${ENDPOINT_LIMIT} characters`);
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    throw badRequest('endpoint must be an absolute URL');
  }
  if (url.protocol !== 'https:') throw badRequest('endpoint must use https');
  if (url.username || url.password) throw badRequest('endpoint must not carry a user name or password');
  return u;
}

function isCurvePoint(bytes: Buffer): boolean {
  try {
    ECDH.convertKey(bytes, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

export function parseSubscription(u: unknown): SubscriptionInput {
  const sub = record(u, 'subscription', ['endpoint', 'keys', 'expirationTime']);
  const endpoint = parseEndpoint(sub.endpoint);
  const problem = pushHostProblem(new URL(endpoint).hostname);
  if (problem) throw badRequest(`endpoint must be a push service on the internet, not ${problem}`);
  if (sub.expirationTime !== undefined && sub.expirationTime !== null && typeof sub.expirationTime !== 'number')
    throw badRequest('subscription.expirationTime must be a number or null');
  const keys = record(sub.keys, 'subscription.keys', ['p256dh', 'auth']);
  const p256dh = typeof keys.p256dh === 'string' ? decodeBase64Url(keys.p256dh) : undefined;
  if (p256dh?.length !== 65 || p256dh[0] !== 4 || !isCurvePoint(p256dh))
    throw badRequest('keys.p256dh must be an uncompressed P-256 public key (65 bytes, base64url)');
  const auth = typeof keys.auth === 'string' ? decodeBase64Url(keys.auth) : undefined;
  if (auth?.length !== 16) throw badRequest('keys.auth must be a 16-byte secret (base64url)');
  return { endpoint, keys: { p256dh: keys.p256dh as string, auth: keys.auth as string } };
}

/** POST /subscribe: `{subscription}` and nothing else. */
export function parseSubscribeBody(body: unknown): SubscriptionInput {
  return parseSubscription(record(body, 'the body', ['subscription']).subscription);
}

/** POST /unsubscribe: `{endpoint}` and nothing else. */
export function parseUnsubscribeBody(body: unknown): string {
  return parseEndpoint(record(body, 'the body', ['endpoint']).endpoint);
}
