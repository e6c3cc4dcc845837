/**
 * Every name and address this host answers to, for the server certificate's SAN list
 * (localhost, the host name and its .local name, LAN addresses).
 */
import { isIP } from 'node:net';
import { hostname as osHostname, networkInterfaces as osInterfaces } from 'node:os';
import type { NetworkInterfaceInfo } from 'node:os';

export interface HostIdentity {
  hostNames: string[];
  addresses: string[];
}

export interface HostIdentitySources {
  hostname?: () => string;
  interfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
}

const DNS_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** True for a host name a certificate may carry as a dNSName. */
export function isDnsName(name: string): boolean {
  return DNS_NAME.test(name);
}

/**
 * True for an address a certificate may carry as an iPAddress. IPv4-embedded IPv6 forms and
 * zone ids are left out: browsers cannot put them in a URL host.
 */
export function isCertAddress(address: string): boolean {
  return isIP(address) === 4 || (isIP(address) === 6 && !address.includes('.') && !address.includes('%'));
}

/** localhost, the host name, `<host>.local` (mDNS), and every usable interface address. */
export function hostIdentity(sources: HostIdentitySources = {}): HostIdentity {
  const host = (sources.hostname ?? osHostname)().trim().toLowerCase().replace(/\.$/, '');
  const short = host.split('.')[0] ?? '';
  const names = ['localhost', host, short, `${short}.local`].filter(isDnsName);
  const addresses = ['127.0.0.1', '::1'];
  for (const list of Object.values((sources.interfaces ?? osInterfaces)())) {
    for (const info of list ?? []) if (!info.internal) addresses.push(info.address.toLowerCase());
  }
  return { hostNames: [...new Set(names)], addresses: [...new Set(addresses.filter(isCertAddress))] };
}
