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
import { BlockList, isIP } from 'node:net';

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

/** Addresses that are not on the internet (RFC 6890 special-purpose blocks). */
const NOT_INTERNET = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_INTERNET.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_INTERNET.addSubnet(network, prefix, 'ipv6');

/**
 * The IPv4 address inside an IPv4-mapped IPv6 one, in any spelling (`::ffff:127.0.0.1`,
 * `::ffff:7f00:1`, `0:0:0:0:0:ffff:7f00:1`), else undefined. URL writes IPv6 in one canonical form.
 */
function mappedIpv4(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined;
  const canonical = new URL(`http://[${address}]/`).hostname;
  const hex = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!hex) return undefined;
  const high = parseInt(hex[1] as string, 16);
  const low = parseInt(hex[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an address on the internet; an IPv4-mapped IPv6 address is judged by its IPv4 part. */
export function isInternetAddress(address: string): boolean {
  const mapped = mappedIpv4(address);
  if (mapped !== undefined) return isInternetAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_INTERNET.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
