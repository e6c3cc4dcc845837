/** H.264 NAL unit helpers (ITU-T H.264 §7.3.1, Annex B byte stream). */

export const NAL = Object.freeze({ IDR: 5, SEI: 6, SPS: 7, PPS: 8, AUD: 9 });

export const START_CODE = Buffer.from([0, 0, 0, 1]);
/** An access unit delimiter, primary_pic_type 7 (any slice type). */
export const AUD_NAL = Buffer.from([0x09, 0xf0]);

export function nalType(nal: Buffer): number {
  return (nal[0] ?? 0) & 0x1f;
}

/** NAL units of an Annex-B byte string, without their start codes. */
export function splitAnnexB(data: Buffer): Buffer[] {
  const starts: { at: number; len: number }[] = [];
  for (let i = 0; i + 2 < data.length; i += 1) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      starts.push({ at: i, len: 3 });
      i += 2;
    }
  }
  return starts
    .map(({ at, len }, k) => {
      let end = starts[k + 1]?.at ?? data.length;
      // A four-byte start code's leading zero belongs to the start code, not to this NAL.
      while (end > at + len && data[end - 1] === 0 && k + 1 < starts.length) end -= 1;
      return data.subarray(at + len, end);
    })
    .filter((nal) => nal.length > 0);
}

export function joinAnnexB(nals: readonly Buffer[]): Buffer {
  return Buffer.concat(nals.flatMap((nal) => [START_CODE, nal]));
}
