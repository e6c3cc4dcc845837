/**
 * Whether an address is on the internet, or in one of RFC 6890's special-purpose blocks (the
 * LAN, this machine, link-local, CGNAT, multicast, reserved). Push may only go to the internet
 * (server/push/push-destination.ts); the video relay only answers connection checks on the LAN
 * (server/camera/relay/relay-peer.ts).
 */
import { BlockList, isIP } from 'node:net';

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
  ['192.0.2.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_INTERNET.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['2001:db8::', 32],
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
