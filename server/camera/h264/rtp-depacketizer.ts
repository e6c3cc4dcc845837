/**
 * H.264 over RTP, receiving side (RFC 6184): single NAL unit packets (§5.6), STAP-A (§5.7.1)
 * and FU-A (§5.8), with the marker bit ending an access unit (§5.1). Packets come in sequence
 * order (the jitter buffer in front reorders them). After a loss the access unit in progress is
 * dropped and nothing is emitted until the next keyframe, since later pictures reference what
 * was lost; `onNeedKeyframe` asks the sender for one. Access unit delimiters are left out: the
 * decoder gets its own (jpeg-decoder.ts).
 */
import type { H264AccessUnit } from '../frame.ts';
import { joinAnnexB, NAL, nalType } from './nal.ts';

export interface RtpInput {
  payload: Buffer;
  marker: boolean;
  /** RTP timestamp: every packet of one access unit carries the same one. */
  timestamp: number;
}

export interface RtpDepacketizer {
  /** A packet in sequence order; returns the access unit it completes, if any. */
  push(packet: RtpInput): H264AccessUnit | undefined;
  /** Packets were lost before the next one pushed. */
  lost(): void;
}

const STAP_A = 24;
const FU_A = 28;

class Depacketizer implements RtpDepacketizer {
  private nals: Buffer[] = [];
  private fragment: Buffer[] | undefined;
  private timestamp: number | undefined;
  private broken = false;
  private waitingForKeyframe = true;

  constructor(private readonly onNeedKeyframe: () => void) {}

  push(packet: RtpInput): H264AccessUnit | undefined {
    // A new timestamp while the previous unit never saw its marker: that unit is incomplete.
    if (this.timestamp !== undefined && packet.timestamp !== this.timestamp) {
      this.broken = true;
      this.finish();
    }
    this.timestamp = packet.timestamp;
    const { payload } = packet;
    const type = (payload[0] ?? 0) & 0x1f;
    if (type >= 1 && type <= 23) this.add(payload);
    else if (type === STAP_A) this.stapA(payload);
    else if (type === FU_A) this.fuA(payload);
    else this.broken = true; // STAP-B, MTAP, FU-B: not in packetization-mode 1
    return packet.marker ? this.finish() : undefined;
  }

  lost(): void {
    this.broken = true;
  }

  private add(nal: Buffer): void {
    if (nal.length > 0 && nalType(nal) !== NAL.AUD) this.nals.push(nal);
  }

  private stapA(payload: Buffer): void {
    for (let at = 1; at + 2 <= payload.length;) {
      const size = payload.readUInt16BE(at);
      this.add(payload.subarray(at + 2, at + 2 + size));
      at += 2 + size;
    }
  }

  private fuA(payload: Buffer): void {
    const indicator = payload[0] ?? 0;
    const header = payload[1] ?? 0;
    const body = payload.subarray(2);
    if (header & 0x80) this.fragment = [Buffer.from([(indicator & 0xe0) | (header & 0x1f)]), body];
    else if (this.fragment) this.fragment.push(body);
    else this.broken = true; // a middle or end without its start
    if (header & 0x40 && this.fragment) {
      this.add(Buffer.concat(this.fragment));
      this.fragment = undefined;
    }
  }

  private finish(): H264AccessUnit | undefined {
    const complete = !this.broken && this.fragment === undefined && this.nals.length > 0;
    const keyframe = this.nals.some((nal) => nalType(nal) === NAL.IDR);
    const data = joinAnnexB(this.nals);
    const damaged = this.broken;
    this.nals = [];
    this.fragment = undefined;
    this.timestamp = undefined;
    this.broken = false;
    if (damaged) {
      // A picture was lost: what follows references it until the next keyframe.
      this.waitingForKeyframe = true;
      this.onNeedKeyframe();
    }
    if (!complete) return undefined;
    if (this.waitingForKeyframe && !keyframe) {
      this.onNeedKeyframe();
      return undefined;
    }
    this.waitingForKeyframe = false;
    return { data, keyframe };
  }
}

export function createRtpDepacketizer(onNeedKeyframe: () => void): RtpDepacketizer {
  return new Depacketizer(onNeedKeyframe);
}
