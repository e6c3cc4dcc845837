/**
 * DNS rebinding defence: a page on an attacker's name that resolves to this host sends its own
 * name in Host. Only names this host answers to are served: loopback, the host's names and
 * addresses, and the configured RP ID / origin (a tunnel's public name). The machine's addresses
 * change (DHCP, a new Wi-Fi): an unknown name makes the list re-read them, at most once every
 * REREAD_MS, so a new address is served without a restart and a flood of foreign names costs
 * one interface scan per period.
 */
import { systemClock, type Clock } from '../clock.ts';
import { hostIdentity, type HostIdentity } from './host-identity.ts';
import { parseHost } from './untrusted-input.ts';

export interface HostAllowlist {
  allows(hostHeader: string | undefined): boolean;
}

export const REREAD_MS = 10_000;

export interface HostAllowlistOptions {
  rpId?: string | undefined;
  origin?: string | undefined;
  /** Host names and addresses; the machine's own, read again on a miss, by default. */
  identity?: HostIdentity | (() => HostIdentity);
  clock?: Clock;
  /** Names that come and go while running: the `.local` name LAN discovery advertises. */
  extraNames?: () => readonly string[];
}

/** The name part of a Host header: lower case, port and IPv6 brackets removed ('' when malformed). */
export function hostName(header: string): string {
  const parsed = parseHost(header);
  return parsed.ok ? parsed.value.name : '';
}

export function createHostAllowlist(options: HostAllowlistOptions = {}): HostAllowlist {
  const readIdentity = typeof options.identity === 'function' ? options.identity : options.identity ? () => options.identity as HostIdentity : hostIdentity;
  const clock = options.clock ?? systemClock;
  const fixed = new Set<string>(['localhost', '127.0.0.1', '::1']);
  if (options.rpId) fixed.add(options.rpId.toLowerCase());
  if (options.origin) fixed.add(new URL(options.origin).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1'));
  let own = identitySet(readIdentity());
  let readAt = clock.now();

  function known(name: string): boolean {
    return fixed.has(name) || own.has(name) || name.endsWith('.localhost') || (options.extraNames?.().includes(name) ?? false);
  }

  return {
    allows(header) {
      // HTTP/1.1 requires Host; a request without one is not from a browser page.
      const parsed = parseHost(header);
      if (!parsed.ok) return false;
      const name = parsed.value.name;
      if (known(name)) return true;
      if (clock.now() - readAt < REREAD_MS) return false;
      readAt = clock.now();
      own = identitySet(readIdentity());
      return known(name);
    },
  };
}

function identitySet(identity: HostIdentity): Set<string> {
  return new Set([...identity.hostNames, ...identity.addresses].map((n) => n.toLowerCase()));
}
