/**
 * The Content-Security-Policy of the desktop window, sent as a response header on the window's
 * own Electron session. The dashboard build needs nothing inline: Vite emits one
 * module script and stylesheet files, and Svelte sets dynamic styles through the CSSOM
 * (element.style), which CSP does not govern. So no 'unsafe-inline' anywhere, unlike the
 * server's policy for browsers (server/http/security-headers.ts), which also covers the trust
 * page's <style>; csp.test.ts fails if the dashboard's markup starts needing it.
 */

import { PEER_HEALTH_SOURCES } from '../../server/index.ts';

/** Directives in the order they are written; each value list is joined by spaces. */
export function contentSecurityPolicy(localOrigin: string): string {
  const { host, protocol } = new URL(localOrigin);
  // The state socket lives on the same host and port. 'self' matches ws: for it in current
  // Chromium, but naming the socket origins keeps the policy honest for older rules too.
  const sockets = protocol === 'https:' ? [`wss://${host}`] : [`ws://${host}`, `wss://${host}`];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'"]],
    // data: for the pairing QR code and the favicon, blob: for camera pictures from /ws.
    ['img-src', ["'self'", 'data:', 'blob:']],
    // The fleet page reads other robots' public /api/health, and nothing else off this origin.
    ['connect-src', ["'self'", ...sockets, ...PEER_HEALTH_SOURCES]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

export type ResponseHeaders = Record<string, string | string[]>;

/**
 * The response headers with ours as the only policy. A page may not loosen it: any policy the
 * server sent is dropped (header names compare case-insensitively), then ours is added.
 */
export function withPolicy(headers: ResponseHeaders | undefined, policy: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'content-security-policy' || lower === 'content-security-policy-report-only') continue;
    out[name] = Array.isArray(value) ? value : [value];
  }
  out['Content-Security-Policy'] = [policy];
  return out;
}
