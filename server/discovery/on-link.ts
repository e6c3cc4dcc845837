/**
 * Whether a packet on the mDNS socket came from this machine's own link. The socket listens on
 * port 5353 of every address, so a host on another network that can reach that port (a routed
 * campus network, a VPN, a public address) could otherwise announce made-up robots into the
 * fleet, pin their fingerprints first, or make the responder multicast answers here. mDNS is
 * link-local: a sender on the link has an address inside one of our interfaces' subnets, or an
 * IPv4 link-local one (RFC 6762 §11 asks receivers to check the same).
 */
import { isIPv4 } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

const toNumber = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

export type Interfaces = () => NodeJS.Dict<NetworkInterfaceInfo[]>;

export function isOnLink(address: string, interfaces: Interfaces = networkInterfaces): boolean {
  // The socket is IPv4 (multicast-dns's default); an IPv6 sender only arrives on a test's socket.
  if (!isIPv4(address)) return true;
  const sender = toNumber(address);
  if (sender >>> 16 === toNumber('169.254.0.0') >>> 16) return true;
  for (const info of Object.values(interfaces()).flatMap((list) => list ?? [])) {
    if (info.family !== 'IPv4' || !isIPv4(info.netmask)) continue;
    const mask = toNumber(info.netmask);
    // Numbers past 2^31 stay exact as doubles; the masking is done with unsigned shifts.
    if ((sender & mask) >>> 0 === (toNumber(info.address) & mask) >>> 0) return true;
  }
  return false;
}

/** How long the interfaces read for onLinkChecker are used before they are read again. */
export const INTERFACES_EVERY_MS = 1000;

/**
 * isOnLink over the interfaces read at most once every INTERFACES_EVERY_MS. It runs for every
 * packet on port 5353, before any budget (packet-budget.ts) can drop it, and reading the
 * interfaces (a getifaddrs call, some 40 µs and more with each interface) for each packet of a
 * flood cost several times what receiving it did. An interface come or gone counts within a second.
 */
export function onLinkChecker(
  now: () => number,
  interfaces: Interfaces = networkInterfaces,
): (address: string) => boolean {
  let readAt = -Infinity;
  let list: ReturnType<Interfaces> = {};
  const current = () => {
    const at = now();
    // A clock set back reads them again too, rather than keeping old ones until it catches up.
    if (at - readAt >= INTERFACES_EVERY_MS || at < readAt) {
      list = interfaces();
      readAt = at;
    }
    return list;
  };
  return (address) => isOnLink(address, current);
}

type MessageReader = (message: Buffer, rinfo: { address: string }) => void;

/** The slice of a dgram socket used by dropOffLink. */
export interface MessageSocket {
  listeners(event: 'message'): unknown[];
  removeAllListeners(event: 'message'): unknown;
  on(event: 'message', listener: MessageReader): unknown;
}

/**
 * Puts the check in front of every reader of `socket`'s packets, once they are attached:
 * multicast-dns, and through it bonjour-service's probe, which takes any answer naming our
 * service while it probes as the name being in use, and then never advertises it. `keep` is told
 * the sender and the packet: false for a sender off the link (and for what packet-budget.ts refuses).
 */
export function dropOffLink(socket: MessageSocket, keep: (address: string, message: Buffer) => boolean): void {
  const readers = socket.listeners('message') as MessageReader[];
  socket.removeAllListeners('message');
  socket.on('message', (message, rinfo) => {
    if (!keep(rinfo.address, message)) return;
    for (const read of readers) read.call(socket, message, rinfo);
  });
}
