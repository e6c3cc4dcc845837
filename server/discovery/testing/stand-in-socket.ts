/**
 * A stand-in for the dgram socket multicast-dns reads and writes (no traffic): what is sent is
 * kept, and a test delivers packets by emitting 'message' with the sender's address.
 */
import { EventEmitter } from 'node:events';

export function standInSocket() {
  const sent: Buffer[] = [];
  const socket = Object.assign(new EventEmitter(), {
    bind: (_port: number, _iface: string | undefined, done: () => void) => done(),
    send(
      message: Buffer,
      offset: number,
      length: number,
      _port: number,
      _address: string,
      done?: (err: Error | null) => void,
    ) {
      sent.push(Buffer.from(message.subarray(offset, offset + length)));
      done?.(null);
    },
    close: (done?: () => void) => done?.(),
    address: () => ({ address: '0.0.0.0', port: 5353 }),
    setMulticastTTL: () => {},
    setMulticastLoopback: () => {},
    addMembership: () => {},
    dropMembership: () => {},
    setMulticastInterface: () => {},
  });
  return { socket, sent };
}
