/**
 * Hostile datagrams for a WebRTC peer's UDP ports. A peer listens on every host candidate it
 * offers, LAN addresses included, so anyone on the network can send it anything: noise with
 * every first byte (the byte that sorts a datagram into STUN, DTLS or RTP, RFC 7983), and
 * malformed STUN, DTLS records, RTP and RTCP. Seeded (fuzz.ts `seeded`), so a failure can be
 * replayed with the same bytes.
 *
 * `sendHostile` follows each batch with a probe the peer must answer: a STUN request of a
 * method ICE does not use, which a peer answers with 400 Bad Request (RFC 8489 §6.3.1.1). UDP to
 * one socket arrives in order, so the answer proves the batch before it was read and handled,
 * and the batch is small enough for the socket's receive buffer to hold it whole.
 */
import dgram from 'node:dgram';
import { isIPv4 } from 'node:net';
import { seeded, type Rng } from './fuzz.ts';

export interface UdpTarget {
  address: string;
  port: number;
}

/** The IPv4 host candidates of an SDP (the ones a test on this host can reach). */
export function hostCandidates(sdp: string): UdpTarget[] {
  const found = [...sdp.matchAll(/a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host/g)];
  return found.filter((m) => isIPv4(m[1] ?? '')).map((m) => ({ address: m[1] as string, port: Number(m[2]) }));
}

const STUN_COOKIE = 0x2112a442;

function bytes(rng: Rng, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i += 1) b[i] = Math.floor(rng() * 256);
  return b;
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

/** A STUN message with the cookie, a lying length and attributes that overrun or say nothing. */
function stun(rng: Rng): Buffer {
  // Binding request, indication, success and error; an unknown method; ICE's own attributes.
  const type = pick(rng, [0x0001, 0x0011, 0x0101, 0x0111, 0x0003, 0x3fff]);
  const attributes = Array.from({ length: Math.floor(rng() * 4) }, () => {
    const kind = pick(rng, [0x0006, 0x0008, 0x0009, 0x0020, 0x0024, 0x0025, 0x8028, 0x8029, 0x802a, 0x7fff]);
    const length = pick(rng, [0, 1, 3, 4, 20, 300]);
    const head = Buffer.alloc(4);
    head.writeUInt16BE(kind, 0);
    head.writeUInt16BE(length, 2);
    // The value is shorter than it says, or as long, never padded.
    return Buffer.concat([head, bytes(rng, Math.min(length, Math.floor(rng() * 24)))]);
  });
  const body = Buffer.concat(attributes);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(pick(rng, [body.length, body.length + 4, 2, 0xfffc]), 2);
  header.writeUInt32BE(STUN_COOKIE, 4);
  bytes(rng, 12).copy(header, 8);
  return Buffer.concat([header, body]);
}

/** A DTLS record (handshake, alert, application data...) with a lying length or fragment. */
function dtls(rng: Rng): Buffer {
  const record = Buffer.alloc(13);
  record[0] = 20 + Math.floor(rng() * 6);
  record.writeUInt16BE(pick(rng, [0xfefd, 0xfeff, 0x0303, 0x0000]), 1);
  record.writeUInt16BE(Math.floor(rng() * 3), 3);
  bytes(rng, 6).copy(record, 5);
  const body = bytes(rng, pick(rng, [0, 1, 12, 40, 200]));
  // A handshake message header: type, a length and fragment that need not fit.
  if (record[0] === 22 && body.length >= 12) body[0] = pick(rng, [1, 2, 3, 11, 12, 14, 16, 20]);
  record.writeUInt16BE(pick(rng, [body.length, body.length + 100, 0, 0xffff]), 11);
  return Buffer.concat([record, body]);
}

/** RTP or RTCP: version 2, with padding, extension and CSRC counts that claim more than is there. */
function rtp(rng: Rng): Buffer {
  const b = bytes(rng, pick(rng, [4, 8, 12, 16, 28, 60, 1200]));
  b[0] = 0x80 | (rng() < 0.3 ? 0x20 : 0) | (rng() < 0.3 ? 0x10 : 0) | Math.floor(rng() * 16);
  // RTCP types (SR, RR, SDES, BYE, APP, transport and payload feedback) or RTP payload types.
  b[1] = rng() < 0.5 ? pick(rng, [200, 201, 202, 203, 204, 205, 206, 207]) : 96 + Math.floor(rng() * 32);
  if (b.length >= 4 && rng() < 0.5) b.writeUInt16BE(pick(rng, [0, 1, 0xffff]), 2);
  if (rng() < 0.3) b[b.length - 1] = 0xff; // a padding count past the start
  return b;
}

/** About 4,000 datagrams: noise with every first byte at several lengths, then the shaped kinds. */
export function hostileDatagrams(seed = 1): Buffer[] {
  const rng = seeded(seed);
  const out: Buffer[] = [];
  for (let first = 0; first < 256; first += 1) {
    for (const length of [1, 2, 4, 12, 13, 20, 21, 28, 100, 1300]) {
      const b = bytes(rng, length);
      b[0] = first;
      out.push(b);
    }
  }
  for (let i = 0; i < 500; i += 1) out.push(stun(rng), dtls(rng), rtp(rng));
  return out;
}

/** A STUN request of a method ICE does not use (0x00f), with a transaction id the answer echoes. */
function probe(id: number): Buffer {
  const b = Buffer.alloc(20);
  b.writeUInt16BE(0x000f, 0); // class bits (0x0110) clear: a request
  b.writeUInt32BE(STUN_COOKIE, 4);
  b.writeUInt32BE(id, 16);
  return b;
}

/**
 * Sends `datagrams` to `target` in batches of `batch`, each followed by a probe; resolves once
 * the target has answered the last probe, so every datagram was read before. Rejects if a probe
 * goes unanswered within `probeMs` (the peer stopped reading, or died).
 */
export async function sendHostile(
  target: UdpTarget,
  datagrams: readonly Buffer[],
  batch = 48,
  probeMs = 10_000,
): Promise<void> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const answered = new Set<number>();
  const waiting = new Map<number, () => void>();
  socket.on('message', (m) => {
    // A STUN error response (class bits 0x0110) to one of the probes.
    if (m.length < 20 || (m.readUInt16BE(0) & 0x0110) !== 0x0110) return;
    const id = m.readUInt32BE(16);
    answered.add(id);
    waiting.get(id)?.();
  });
  const send = (b: Buffer): Promise<void> =>
    new Promise((resolve, reject) => socket.send(b, target.port, target.address, (e) => (e ? reject(e) : resolve())));
  try {
    for (let start = 0, id = 1; start < datagrams.length; start += batch, id += 1) {
      for (const d of datagrams.slice(start, start + batch)) await send(d);
      const answer = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no answer from ${target.address}:${target.port} after datagram ${start + batch}`)),
          probeMs,
        );
        waiting.set(id, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await send(probe(id));
      if (!answered.has(id)) await answer;
      waiting.delete(id);
    }
  } finally {
    socket.close();
  }
}
