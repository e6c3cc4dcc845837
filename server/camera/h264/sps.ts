/**
 * The picture size from an H.264 sequence parameter set (ITU-T H.264 §7.3.2.1.1, with frame
 * cropping, §7.4.2.1.1), so H.264 frames carry their size without being decoded.
 */

class BitReader {
  private bit = 0;
  constructor(private readonly bytes: Buffer) {}

  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i += 1) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new RangeError('SPS ends early');
      v = (v << 1) | ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit += 1;
    }
    return v >>> 0;
  }

  /** Exp-Golomb ue(v). */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros += 1;
      if (zeros > 31) throw new RangeError('bad exp-Golomb code');
    }
    return (2 ** zeros - 1 + (zeros > 0 ? this.u(zeros) : 0)) >>> 0;
  }

  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }
}

/** Drops the emulation-prevention bytes (00 00 03 → 00 00), §7.4.1. */
function rbsp(nal: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 1; i < nal.length; i += 1) {
    const b = nal[i] ?? 0;
    if (b === 3 && nal[i - 1] === 0 && nal[i - 2] === 0 && i >= 3) continue;
    out.push(b);
  }
  return Buffer.from(out);
}

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function skipScalingLists(r: BitReader, count: number): void {
  for (let i = 0; i < count; i += 1) {
    if (r.u(1) === 0) continue;
    const size = i < 6 ? 16 : 64;
    let last = 8;
    let next = 8;
    for (let j = 0; j < size && next !== 0; j += 1) {
      next = (last + r.se() + 256) % 256;
      last = next === 0 ? last : next;
    }
  }
}

function skipPocFields(r: BitReader): void {
  const pocType = r.ue();
  if (pocType === 0) r.ue();
  else if (pocType === 1) {
    r.u(1);
    r.se();
    r.se();
    const cycle = r.ue();
    for (let i = 0; i < cycle; i += 1) r.se();
  }
}

/** Width and height in pixels, or undefined when the NAL is not a readable SPS. */
export function spsPictureSize(nal: Buffer): { width: number; height: number } | undefined {
  try {
    const r = new BitReader(rbsp(nal));
    const profile = r.u(8);
    r.u(16); // constraint flags and level
    r.ue(); // seq_parameter_set_id
    let chroma = 1;
    if (HIGH_PROFILES.has(profile)) {
      chroma = r.ue();
      if (chroma === 3) r.u(1);
      r.ue();
      r.ue();
      r.u(1);
      if (r.u(1) === 1) skipScalingLists(r, chroma === 3 ? 12 : 8);
    }
    r.ue(); // log2_max_frame_num_minus4
    skipPocFields(r);
    r.ue(); // max_num_ref_frames
    r.u(1);
    const widthMbs = r.ue() + 1;
    const heightUnits = r.ue() + 1;
    const frameMbsOnly = r.u(1);
    if (frameMbsOnly === 0) r.u(1);
    r.u(1); // direct_8x8_inference_flag
    const crop = r.u(1) === 1 ? [r.ue(), r.ue(), r.ue(), r.ue()] : [0, 0, 0, 0];
    const [cropX, cropY] =
      chroma === 0 ? [1, 2 - frameMbsOnly] : [chroma === 3 ? 1 : 2, (chroma === 1 ? 2 : 1) * (2 - frameMbsOnly)];
    const [l = 0, rt = 0, t = 0, b = 0] = crop;
    return {
      width: widthMbs * 16 - cropX * (l + rt),
      height: (2 - frameMbsOnly) * heightUnits * 16 - cropY * (t + b),
    };
  } catch {
    return undefined;
  }
}
