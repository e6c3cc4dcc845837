/**
 * Which of a browser's ICE candidates the relay takes: only an IP address on the LAN or this
 * machine. The relay sends connectivity checks to every candidate it takes, and a candidate is
 * text any keyed caller writes; an internet address (or a name to resolve) would have the robot
 * send packets wherever that caller pointed. An mDNS name (`….local`) cannot be resolved here,
 * and the browser's own checks reveal its address anyway (a peer-reflexive candidate).
 */
import { isIP } from 'node:net';
import { isInternetAddress } from '../../http/internet-address.ts';

/** `candidate:<foundation> <component> <transport> <priority> <address> <port> typ <type> …` */
export function isLanCandidate(candidate: string): boolean {
  const address = candidate.trim().split(/\s+/)[4];
  return address !== undefined && isIP(address) !== 0 && !isInternetAddress(address);
}
