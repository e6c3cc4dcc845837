/** H.264 NAL unit helpers (ITU-T H.264 §7.3.1, Annex B byte stream). */

export const NAL = Object.freeze({ IDR: 5, SEI: 6, SPS: 7, PPS: 8, AUD: 9 });

export const START_CODE = Buffer.from([0, 0, 0, 1]);
/** An access unit delimiter, primary_pic_type 7 (any slice type). */
export const AUD_NAL = Buffer.from([0x09, 0xf0]);

export function nalType(nal: Buffer): number {
  return (nal[0] ?? 0) & 0x1f;
}

const START_CODE_3 = Buffer.from([0, 0, 1]);

/**
 * NAL units of an Annex-B byte string, without their start codes. The start codes are found
 * with Buffer.indexOf, native code, because this runs on every keyframe from the first one on:
 * a byte loop in JavaScript took up to 2.8 ms per 11 KB keyframe until V8 had optimised it,
 * and each of those milliseconds held the video relay's packets back.
 */
export function splitAnnexB(data: Buffer): Buffer[] {
  const starts: number[] = [];
  for (let at = data.indexOf(START_CODE_3); at !== -1; at = data.indexOf(START_CODE_3, at + 3)) starts.push(at);
  const nals: Buffer[] = [];
  starts.forEach((at, k) => {
    const next = starts[k + 1];
    let end = next ?? data.length;
    // A four-byte start code's leading zero belongs to the start code, not to this NAL.
    if (next !== undefined) while (end > at + 3 && data[end - 1] === 0) end -= 1;
    if (end > at + 3) nals.push(data.subarray(at + 3, end));
  });
  return nals;
}

export function joinAnnexB(nals: readonly Buffer[]): Buffer {
  return Buffer.concat(nals.flatMap((nal) => [START_CODE, nal]));
}
