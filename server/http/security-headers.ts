/**
 * Response headers that make the dashboard hard to misuse from elsewhere: a strict
 * Content-Security-Policy, no framing, no MIME sniffing, no referrer (the first URL may carry a
 * token), and the Host allowlist applied before anything else runs.
 */
import type { Middleware } from 'koa';
import { AppError } from '../errors.ts';
import type { HostAllowlist } from './host-allowlist.ts';
import { parseHost } from './untrusted-input.ts';

/**
 * The fleet page reads other robots' public health from the owner's browser
 * (server/discovery/README-discovery.md); the page may reach that one path on any host, nothing
 * else off its origin.
 */
export const PEER_HEALTH_SOURCES: readonly string[] = Object.freeze(['http://*:*/api/health', 'https://*:*/api/health']);

/**
 * 'unsafe-inline' for styles only: Svelte writes style attributes for dynamic values, and the
 * trust page carries its own <style>. Scripts are same-origin files only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  `connect-src 'self' ${PEER_HEALTH_SOURCES.join(' ')}`,
  "worker-src 'self'",
  "manifest-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), geolocation=(), microphone=(self)',
});

/**
 * The block above as name/value pairs, built once: every response sets them straight on Node's
 * response, skipping Koa's per-call field handling (ctx.set with an object walks the object and
 * coerces each value on every request; measured about 40 % of this middleware's cost).
 */
const HEADER_BLOCK: readonly (readonly [string, string])[] = Object.freeze(Object.entries(SECURITY_HEADERS));

export function securityHeaders(hosts: HostAllowlist): Middleware {
  return async function secure(ctx, next) {
    const { res } = ctx;
    for (const [name, value] of HEADER_BLOCK) res.setHeader(name, value);
    const host = ctx.get('host') || undefined;
    const parsed = parseHost(host);
    if (!parsed.ok) throw new AppError('BAD_REQUEST', parsed.reason);
    if (!hosts.allows(host)) {
      throw new AppError('AUTH_FORBIDDEN', 'this robot does not answer to that host name');
    }
    await next();
  };
}
