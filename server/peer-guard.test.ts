/**
 * The peer guard (peer-guard.ts). LAN-only ICE is proved where the packets go: werift looks a STUN server's name up
 * with `dns.promises.lookup` and every datagram leaves through a socket's `send`; the test
 * watches both. A lookup is answered as an unknown name, and a send to a name refused the same
 * way, so nothing leaves the machine whatever its network.
 */
import dns from 'node:dns';
import dgram from 'node:dgram';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { RTCPeerConnection, useH264 } from 'werift';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { robotToConsumer, sendPicturesUntil } from './camera/testing/peer-pair.ts';
import { endsDtlsSession } from './peer-guard.ts';

/** Where each datagram was addressed: an IP literal, or a name. */
let sentTo: string[] = [];
/** Names looked up. */
let lookedUp: string[] = [];
const cleanup: (() => unknown)[] = [];

const unknownName = (name: string): Error =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });

beforeEach(() => {
  sentTo = [];
  lookedUp = [];
  vi.spyOn(dns.promises, 'lookup').mockImplementation((name: string) => {
    lookedUp.push(name);
    return Promise.reject(unknownName(name));
  });
  const send = dgram.Socket.prototype.send;
  vi.spyOn(dgram.Socket.prototype, 'send').mockImplementation(function (this: dgram.Socket, ...args: unknown[]) {
    const address = args.find((a, i) => i > 0 && typeof a === 'string');
    if (typeof address === 'string') {
      sentTo.push(address);
      if (!isIP(address)) {
        const callback = args.find((a) => typeof a === 'function') as ((e: Error) => void) | undefined;
        queueMicrotask(() => callback?.(unknownName(address)));
        return;
      }
    }
    return (send as (...a: unknown[]) => void).apply(this, args);
  });
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  vi.restoreAllMocks();
});

/** This host's own addresses: where host candidates, and so every ICE datagram here, point. */
const ownAddresses = new Set(
  Object.values(networkInterfaces())
    .flat()
    .map((i) => i?.address),
);

describe('LAN-only ICE', () => {
  it('is needed: left alone, werift asks a public STUN server even with no ICE servers', async () => {
    const pc = new RTCPeerConnection({ codecs: { video: [useH264()] }, iceServers: [] });
    cleanup.push(() => pc.close());
    pc.addTransceiver('video', { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    expect(lookedUp).toContain('stun.l.google.com');
  });

  it('keeps the relay and the robot-camera consumer to host candidates: no name, no reflexive candidate, video flows', async () => {
    const pair = await robotToConsumer();
    cleanup.push(() => pair.close());
    expect(pair.offer).not.toContain('typ srflx');
    expect(pair.answer).not.toContain('typ srflx');
    await sendPicturesUntil(pair.peer, pair.received, 1);
    expect(lookedUp).toEqual([]);
    expect(sentTo.length).toBeGreaterThan(0);
    expect(sentTo.filter((a) => !ownAddresses.has(a))).toEqual([]);
  });
});

/** A DTLS 1.2 record: type, version, epoch, sequence, length, body. */
function record(type: number, body: Buffer, epoch = 0): Buffer {
  const head = Buffer.alloc(13);
  head[0] = type;
  head.writeUInt16BE(0xfefd, 1);
  head.writeUInt16BE(epoch, 3);
  head.writeUInt16BE(body.length, 11);
  return Buffer.concat([head, body]);
}

describe('forged DTLS alerts', () => {
  it('are told from the records werift may read, in any record of a datagram', () => {
    const closeNotify = record(21, Buffer.from([1, 0]));
    const handshake = record(22, Buffer.alloc(40, 7));
    expect(endsDtlsSession(closeNotify)).toBe(true);
    expect(endsDtlsSession(record(21, Buffer.alloc(26), 1))).toBe(true); // encrypted, or posing as such
    expect(endsDtlsSession(record(24, Buffer.alloc(40)))).toBe(true); // heartbeat: werift takes it for an alert
    expect(endsDtlsSession(record(63, Buffer.alloc(2)))).toBe(true);
    expect(endsDtlsSession(Buffer.concat([handshake, closeNotify]))).toBe(true);

    expect(endsDtlsSession(handshake)).toBe(false);
    expect(endsDtlsSession(Buffer.concat([record(20, Buffer.from([1])), record(22, Buffer.alloc(40), 1)]))).toBe(false);
    expect(endsDtlsSession(record(23, Buffer.alloc(60), 1))).toBe(false);
    // Not DTLS at all (RFC 7983): STUN, RTP and RTCP pass untouched.
    expect(endsDtlsSession(Buffer.from([0, 1, 0, 0]))).toBe(false);
    expect(endsDtlsSession(Buffer.from([0x80, 200, 0, 6]))).toBe(false);
    expect(endsDtlsSession(Buffer.alloc(0))).toBe(false);
    // A record cut short is left to werift, which skips it.
    expect(endsDtlsSession(closeNotify.subarray(0, 12))).toBe(false);
  });
});
