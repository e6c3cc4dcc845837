/**
 * H.264 over RTP, sending side (RFC 6184, packetization-mode=1 as webrtcsink negotiates it):
 * a NAL unit that fits goes alone (single NAL unit packet, docs/daemon.md, "What differed in the simulator, and what changed"); a larger one is cut into
 * FU-A fragments (docs/daemon.md, "What differed in the simulator, and what changed"). The marker bit is set on the last packet of the access unit (docs/daemon.md, "What differed in the simulator, and what changed").
 */
import { RtpHeader, RtpPacket } from 'werift';

/** Keeps packets under a typical path MTU once SRTP, UDP and IP headers are added. */
export const MAX_RTP_PAYLOAD = 1200;
const FU_A = 28;
const AUD = 9;
/** RTP video clock (RFC 6184 §8.2.1). */
const CLOCK_HZ = 90_000;

export interface RtpPayload {
  payload: Buffer;
  marker: boolean;
}

function fragment(nal: Buffer, maxPayload: number): Buffer[] {
  const header = nal[0] ?? 0;
  const indicator = (header & 0xe0) | FU_A;
  const type = header & 0x1f;
  const body = nal.subarray(1);
  const step = maxPayload - 2;
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += step) {
    const start = at === 0 ? 0x80 : 0;
    const end = at + step >= body.length ? 0x40 : 0;
    parts.push(Buffer.concat([Buffer.from([indicator, start | end | type]), body.subarray(at, at + step)]));
  }
  return parts;
}

/** The RTP payloads of one access unit, in order. Access unit delimiters are not sent. */
export function packetizeAccessUnit(nals: readonly Buffer[], maxPayload = MAX_RTP_PAYLOAD): RtpPayload[] {
  const payloads: Buffer[] = [];
  for (const nal of nals) {
    if (nal.length === 0 || ((nal[0] ?? 0) & 0x1f) === AUD) continue;
    if (nal.length <= maxPayload) payloads.push(nal);
    else payloads.push(...fragment(nal, maxPayload));
  }
  return payloads.map((payload, i) => ({ payload, marker: i === payloads.length - 1 }));
}

export interface RtpStream {
  /** RTP packets for one access unit captured at `nowMs` (a monotonic clock). */
  packets(nals: readonly Buffer[], nowMs: number): RtpPacket[];
}

/** Sequence numbers and timestamps of one outgoing stream; werift rewrites SSRC and payload type. */
export function createRtpStream(payloadType = 96): RtpStream {
  let sequenceNumber = Math.floor(Math.random() * 0xffff);
  let firstMs: number | undefined;
  const base = Math.floor(Math.random() * 0xffffffff);
  return {
    packets(nals, nowMs) {
      firstMs ??= nowMs;
      const timestamp = (base + Math.round(((nowMs - firstMs) * CLOCK_HZ) / 1000)) >>> 0;
      return packetizeAccessUnit(nals).map(({ payload, marker }) => {
        sequenceNumber = (sequenceNumber + 1) & 0xffff;
        const header = new RtpHeader({ sequenceNumber, timestamp, payloadType, marker, ssrc: 0 });
        return new RtpPacket(header, payload);
      });
    },
  };
}
