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

export function createRtpDepacketizer(onNeedKeyframe: () => void): RtpDepacketizer {
  let nals: Buffer[] = [];
  let fragment: Buffer[] | undefined;
  let timestamp: number | undefined;
  let broken = false;
  let waitingForKeyframe = true;

  const reset = (): void => {
    nals = [];
    fragment = undefined;
    timestamp = undefined;
    broken = false;
  };
  const add = (nal: Buffer): void => {
    if (nal.length > 0 && nalType(nal) !== NAL.AUD) nals.push(nal);
  };

  const stapA = (payload: Buffer): void => {
    for (let at = 1; at + 2 <= payload.length;) {
      const size = payload.readUInt16BE(at);
      add(payload.subarray(at + 2, at + 2 + size));
      at += 2 + size;
    }
  };
  const fuA = (payload: Buffer): void => {
    const indicator = payload[0] ?? 0;
    const header = payload[1] ?? 0;
    const body = payload.subarray(2);
    if (header & 0x80) fragment = [Buffer.from([(indicator & 0xe0) | (header & 0x1f)]), body];
    else if (fragment) fragment.push(body);
    else broken = true; // a middle or end without its start
    if (header & 0x40 && fragment) {
      add(Buffer.concat(fragment));
      fragment = undefined;
    }
  };

  const finish = (): H264AccessUnit | undefined => {
    const complete = !broken && fragment === undefined && nals.length > 0;
    const keyframe = nals.some((nal) => nalType(nal) === NAL.IDR);
    const data = joinAnnexB(nals);
    const damaged = broken;
    reset();
    if (damaged) {
      // A picture was lost: what follows references it until the next keyframe.
      waitingForKeyframe = true;
      onNeedKeyframe();
    }
    if (!complete) return undefined;
    if (waitingForKeyframe && !keyframe) {
      onNeedKeyframe();
      return undefined;
    }
    waitingForKeyframe = false;
    return { data, keyframe };
  };

  return {
    push(packet) {
      // A new timestamp while the previous unit never saw its marker: that unit is incomplete.
      if (timestamp !== undefined && packet.timestamp !== timestamp) {
        broken = true;
        finish();
      }
      timestamp = packet.timestamp;
      const type = (packet.payload[0] ?? 0) & 0x1f;
      if (type >= 1 && type <= 23) add(packet.payload);
      else if (type === STAP_A) stapA(packet.payload);
      else if (type === FU_A) fuA(packet.payload);
      else broken = true; // STAP-B, MTAP, FU-B: not in packetization-mode 1
      return packet.marker ? finish() : undefined;
    },
    lost() {
      broken = true;
    },
  };
}
