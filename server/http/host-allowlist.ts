/**
 * DNS rebinding defence (issue 12): a page on an attacker's name that resolves to this host
 * sends its own name in Host. Only names this host answers to are served: loopback, the host's
 * names and addresses, and the configured RP ID / origin (a tunnel's public name).
 */
import { hostIdentity } from '../auth/host-identity.ts';

export interface HostAllowlist {
  allows(hostHeader: string | undefined): boolean;
}

export interface HostAllowlistOptions {
  rpId?: string | undefined;
  origin?: string | undefined;
  /** Host names and addresses; the machine's own by default. */
  identity?: { hostNames: string[]; addresses: string[] };
  /** Names that come and go while running: the `.local` name LAN discovery advertises. */
  extraNames?: () => readonly string[];
}

/** The name part of a Host header: lower case, port and IPv6 brackets removed. */
export function hostName(header: string): string {
  const trimmed = header.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']'));
  return trimmed.replace(/:\d+$/, '').replace(/\.$/, '');
}

export function createHostAllowlist(options: HostAllowlistOptions = {}): HostAllowlist {
  const identity = options.identity ?? hostIdentity();
  const allowed = new Set<string>(['localhost', '127.0.0.1', '::1', ...identity.hostNames, ...identity.addresses]);
  if (options.rpId) allowed.add(options.rpId.toLowerCase());
  if (options.origin) allowed.add(new URL(options.origin).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1'));
  return {
    allows(header) {
      // HTTP/1.1 requires Host; a request without one is not from a browser page.
      if (!header) return false;
      const name = hostName(header);
      return allowed.has(name) || name.endsWith('.localhost') || (options.extraNames?.().includes(name) ?? false);
    },
  };
}
