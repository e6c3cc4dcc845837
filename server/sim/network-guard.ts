/**
 * The real daemon's local-network guard (1.13, `LocalNetworkGuardMiddleware`), in front of every
 * daemon route and socket: it has no authentication, so it refuses what only a browser tricked by
 * another site would send. A `Host` that is not an IP literal, `localhost`, `tauri.localhost` or a
 * `.local` name is DNS rebinding: 400 `Untrusted Host header`. A state-changing request (anything
 * but GET, HEAD, OPTIONS; every socket handshake) whose `Origin` is not loopback, private,
 * link-local, a `.local` name or a Tauri/Capacitor webview is forgery: 403 `Cross-origin request
 * rejected`. Requests without an Origin (the cockpit, curl, the SDK) pass. Sockets refused either
 * way get a bare 403 handshake, as Starlette answers a close before accept.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOCAL_NAMES = new Set(['localhost', 'tauri.localhost']);
const WEBVIEW_SCHEMES = new Set(['tauri:', 'capacitor:']);

export type GuardRefusal = { status: 400 | 403; detail: string };

function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return LOCAL_NAMES.has(h) || h.endsWith('.local');
}

function hostnameOf(netloc: string): string | null {
  try {
    return new URL(`http://${netloc}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

/** Loopback, private or link-local: where a legitimate browser page on the LAN comes from. */
function isNearbyIp(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  const v6 = ip.toLowerCase();
  return v6 === '::1' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6);
}

export function isTrustedHost(host: string | null): boolean {
  if (!host) return false;
  return isIP(host) !== 0 || isLocalName(host);
}

export function isTrustedOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (WEBVIEW_SCHEMES.has(url.protocol)) return host === 'localhost';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (!host) return false;
  if (isLocalName(host)) return true;
  return isIP(host) !== 0 && isNearbyIp(host);
}

/** null when the request may pass; else the refusal. `socket`: a WebSocket handshake. */
export function guardRequest(headers: IncomingHttpHeaders, method: string, socket = false): GuardRefusal | null {
  // Node joins duplicate headers; a comma means more than one (the real guard refuses duplicates).
  const host = headers.host;
  const origin = headers.origin;
  if ((host ?? '').includes(',') || (origin ?? '').includes(',')) return { status: 400, detail: 'Duplicate Host or Origin header' };
  if (!isTrustedHost(host ? hostnameOf(host) : null)) return { status: 400, detail: 'Untrusted Host header' };
  const stateChanging = socket || !SAFE_METHODS.has(method.toUpperCase());
  if (stateChanging && origin !== undefined && !isTrustedOrigin(origin)) {
    return { status: 403, detail: 'Cross-origin request rejected' };
  }
  return null;
}
