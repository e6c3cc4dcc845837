/**
 * Which URLs the client will talk to or announce. The platform is reached over https only,
 * except a loopback host for local testing. The LAN URL in the heartbeat
 * must be plain http on a private IPv4 literal, or the worker drops it (docs/platform.md, "Devices").
 */
import type { Outcome } from './types.ts';

/** A refusal of a URL, with a sentence for the operator. */
export interface UrlRefusal {
  kind: 'bad_request';
  message: string;
}

/** Parses an IPv4 literal into its four octets, or null. */
export function ipv4Octets(host: string): [number, number, number, number] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((n) => n > 255)) return null;
  return parts as [number, number, number, number];
}

/** True for localhost, 127.0.0.0/8 and ::1: hosts that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return ipv4Octets(host)?.[0] === 127;
}

/**
 * Checks a platform base URL and reduces it to its origin (the routes live at the root,
 * docs/platform.md, "Devices"). https always; http only for a loopback host.
 */
export function checkPlatformUrl(raw: string): Outcome<string, UrlRefusal> {
  const refuse = (message: string) => ({ ok: false as const, failure: { kind: 'bad_request' as const, message } });
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refuse('the platform URL is not a valid URL');
  }
  if (url.username || url.password) return refuse('the platform URL must not carry credentials');
  if (url.protocol === 'https:') return { ok: true, value: url.origin };
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return { ok: true, value: url.origin };
  return refuse('the platform URL must use https (plain http is allowed only for a loopback host)');
}

/** True for the private IPv4 ranges the worker accepts as a LAN URL (docs/platform.md, "Devices"). */
export function isPrivateIpv4(host: string): boolean {
  const o = ipv4Octets(host);
  if (!o) return false;
  const [a, b] = o;
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}

/**
 * The origin to announce as `lanUrl`, or null when the worker would drop it anyway: it must be
 * http:// with a private IPv4 literal, never loopback or a host name (docs/platform.md, "Devices").
 */
export function privateLanOrigin(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || !isPrivateIpv4(url.hostname)) return null;
  return url.origin;
}
