/**
 * The mDNS group membership of each interface, joined again every round of questions.
 * multicast-dns joins an interface once and remembers it by its address: an interface that goes
 * away (a USB adapter unplugged, a driver reloaded) takes the kernel's membership with it, and
 * when it comes back with the same address multicast-dns sees nothing new and never joins again,
 * so the cockpit neither heard nor answered anyone on it until it restarted.
 */
import { networkInterfaces } from 'node:os';

/** The slice of a dgram socket used here. */
export interface GroupSocket {
  addMembership(group: string, address: string): void;
  once(event: 'listening', listener: () => void): unknown;
}

/** Each interface's first IPv4 address, the one multicast-dns joins with (allInterfaces()). */
export function joinAddresses(interfaces = networkInterfaces()): string[] {
  return Object.values(interfaces).flatMap((list) => {
    const v4 = (list ?? []).find((a) => a.family === 'IPv4');
    return v4 ? [v4.address] : [];
  });
}

/**
 * The returned function joins the group on each address once `socket` listens; before that it
 * does nothing, because joining binds an unbound socket to a random port, and multicast-dns's own
 * bind to 5353 then fails.
 */
export function groupRejoiner(socket: GroupSocket, group: string): (addresses: readonly string[]) => void {
  let listening = false;
  socket.once('listening', () => (listening = true));
  return (addresses) => {
    if (listening) rejoinGroup(socket, group, addresses);
  };
}

function rejoinGroup(socket: GroupSocket, group: string, addresses: readonly string[]): void {
  for (const address of addresses) {
    try {
      socket.addMembership(group, address);
    } catch {
      // EADDRINUSE: still a member, the usual case; or the socket is not bound yet, or closed.
    }
  }
}
