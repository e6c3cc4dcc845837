/**
 * The DNS wire codec multicast-dns uses under bonjour-service (dns-packet), reached through those
 * packages rather than named as a dependency of ours: the tests encode and decode packets exactly
 * as the cockpit's mDNS socket does.
 */
import { createRequire } from 'node:module';

const fromHere = createRequire(import.meta.url);
const fromBonjour = createRequire(fromHere.resolve('bonjour-service'));
const fromMdns = createRequire(fromBonjour.resolve('multicast-dns'));

export interface DnsRecord {
  name: string;
  type: string;
  ttl?: number;
  data?: unknown;
}

export interface DnsPacketCodec {
  encode(packet: { type?: 'query' | 'response'; answers?: DnsRecord[]; additionals?: DnsRecord[] }): Buffer;
  decode(buffer: Buffer): unknown;
}

export const dnsPacket = fromMdns('dns-packet') as DnsPacketCodec;
