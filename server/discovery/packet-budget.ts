/**
 * How many mDNS packets a second are read. Each packet on port 5353 is decoded (multicast-dns),
 * and then a response's records are matched against each other (mdns-packet.ts: up to 64 × 64
 * look-ups) or a query's questions against our records (responder-gate.ts). Anyone on the LAN can
 * send thousands a second; read them all and the event loop that also carries the robot's motion
 * and its STOP is kept busy with them. Past the budget, the rest of the second's packets are
 * dropped unread, as is any packet longer than an mDNS packet may be, and how many is logged at
 * debug when the next second begins.
 */
import type { Log } from '../log.ts';

/** Far more than a LAN of honest hosts sends: each answers a round of questions with a packet or two. */
export const PACKETS_PER_SECOND = 100;

/**
 * No mDNS packet is longer (RFC 6762 §17: 9000 bytes with its IP and UDP headers). A longer one,
 * up to 64 KiB, holds some ten thousand questions or records and takes milliseconds to decode:
 * a second's budget of them kept the event loop busy for half of it.
 */
export const MAX_PACKET_BYTES = 9000;

/** Returns `admit`: true for a packet of `bytes` while this second's budget lasts, counting what it refuses. */
export function packetBudget(now: () => number, log: Log, perSecond = PACKETS_PER_SECOND): (bytes: number) => boolean {
  let since = -Infinity;
  let admitted = 0;
  let dropped = 0;
  return (bytes) => {
    const at = now();
    // A clock set back starts a new second too, rather than holding the budget spent until it catches up.
    if (at - since >= 1000 || at < since) {
      if (dropped > 0) log.debug('mDNS packets past the budget were dropped unread', { dropped, perSecond });
      since = at;
      admitted = 0;
      dropped = 0;
    }
    if (admitted < perSecond && bytes <= MAX_PACKET_BYTES) {
      admitted += 1;
      return true;
    }
    dropped += 1;
    return false;
  };
}
