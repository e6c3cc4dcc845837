/**
 * Joining the mDNS group again, over a stand-in socket: nothing before it listens (joining would
 * bind it to a random port), every round after, a membership still held taken in its stride. The
 * interface that goes and comes back is lan-netns.test.ts's.
 */
import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { groupRejoiner } from './multicast-membership.ts';

it('joins on every address each round once the socket listens, whatever a join throws', () => {
  const joined: string[] = [];
  const socket = Object.assign(new EventEmitter(), {
    addMembership(group: string, address: string) {
      if (address === '192.168.1.20')
        throw Object.assign(new Error('addMembership EADDRINUSE'), { code: 'EADDRINUSE' });
      joined.push(`${group} ${address}`);
    },
  });
  const rejoin = groupRejoiner(socket, '224.0.0.251');
  rejoin(['10.0.0.5']);
  expect(joined).toEqual([]);
  socket.emit('listening');
  rejoin(['192.168.1.20', '10.0.0.5']);
  rejoin(['10.0.0.5']);
  expect(joined).toEqual(['224.0.0.251 10.0.0.5', '224.0.0.251 10.0.0.5']);
});
