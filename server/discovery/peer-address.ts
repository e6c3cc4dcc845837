/**
 * A robot added by address: the host a browser can put in a URL, and the id it is kept under.
 * The fleet API (fleet.ts) and the stored fleet.json (fleet-store.ts) hold them to the same rules.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { badRequest } from '../errors.ts';
import { isDnsName } from '../http/host-identity.ts';

export const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

export function manualPeerId(host: string, port: number): string {
  return `ip-${shortHash(`${host}\u0000${port}`)}`;
}

/** An address a browser can put in a URL: IPv4, IPv6 without a zone, or a DNS name. */
export function parsePeerHost(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest('host must be a string');
  const host = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) === 4 || (isIP(host) === 6 && !host.includes('%'))) return host;
  if (isDnsName(host.replace(/\.$/, ''))) return host.replace(/\.$/, '');
  throw badRequest('host must be an IP address or a host name such as robot.local');
}
