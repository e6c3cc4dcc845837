/**
 * Where the robot may send a push: only to a push service on the internet. Every browser's push
 * service (Google's, Mozilla's, Apple's, Microsoft's) is a public DNS name. A subscription is a
 * URL that any keyed caller hands over and that the robot then POSTs to unattended, so without
 * this rule it would POST into the owner's LAN, or to itself, on a caller's say-so
 * (README-push.md, "Where pushes may go"). Two checks:
 * - the host name, at the edge and again when the subscriptions are loaded: no IP literal, no
 *   local name (`pushHostProblem`);
 * - every address that name resolves to, when the robot connects (`pushAgent`), so a public name
 *   that points into the LAN (DNS rebinding) is refused as well. Node skips the lookup for an IP
 *   literal, which is why the name check comes first.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'node:https';
import { isIP } from 'node:net';
import { isInternetAddress } from '../http/internet-address.ts';

/** Suffixes that name hosts of a home or company network, never a push service. */
const LOCAL_SUFFIXES = [
  '.localhost',
  '.local',
  '.localdomain',
  '.internal',
  '.intranet',
  '.lan',
  '.home',
  '.home.arpa',
  '.corp',
  '.private',
];

/** Why `hostname` (as `URL.hostname` gives it) cannot be a push service, or undefined if it can. */
export function pushHostProblem(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  // URL already rewrote every IPv4 spelling (2130706433, 0x7f.1) to dotted decimal; IPv6 keeps brackets.
  if (isIP(host.replace(/^\[(.*)\]$/, '$1')) !== 0) return 'an IP address';
  if (host === 'localhost' || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'a local name';
  if (!host.includes('.')) return 'a name without a domain';
  return undefined;
}

/** True for an https URL on a host that can be a push service (the name only). */
export function isPushServiceEndpoint(endpoint: string): boolean {
  try {
    const url = new URL(endpoint);
    return url.protocol === 'https:' && pushHostProblem(url.hostname) === undefined;
  } catch {
    return false;
  }
}

type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A socket `lookup`'s callback: one address and family, or every address when asked for all. */
export type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets to push services: resolves every address and refuses the connection if
 * any is not on the internet, so a name cannot pass one check and connect to another address.
 */
export function internetOnlyLookup(resolve: Resolve = dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const inside = addresses.find((a) => !isInternetAddress(a.address));
      const first = addresses[0];
      if (inside !== undefined || first === undefined) {
        const refused: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to ${inside?.address ?? 'nothing'}, which is not on the internet; push services are`,
        );
        refused.code = 'EPUSHNOTINTERNET';
        return callback(refused, []);
      }
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

/**
 * The TLS agent pushes go out through unless a test passes its own (push-sender.ts). No keep-alive:
 * pushes are rare, and an idle socket held open would outlive the cockpit's stop.
 */
export function pushAgent(resolve?: Resolve): Agent {
  return new Agent({ keepAlive: false, lookup: internetOnlyLookup(resolve) });
}
