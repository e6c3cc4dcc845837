/**
 * JPEG byte-stream helpers (ITU-T T.81 Annex B): cutting an MJPEG stream (ffmpeg image2pipe,
 * a webcam's MJPEG) into whole pictures, and reading a picture's size. The cut follows the
 * marker segments and their lengths up to the scan, then the entropy-coded data to EOI, so a
 * 0xFFD9 inside a table or a thumbnail does not end a picture early.
 */

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
/** SOF0..SOF15 without DHT (C4), JPG (C8) and DAC (CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function standalone(marker: number): boolean {
  return marker === SOI || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

interface ScanState {
  /** Where scanning resumes. */
  at: number;
  /** Inside entropy-coded data (after SOS). */
  entropy: boolean;
}

/** Skips entropy-coded data to the next real marker; false when the data runs out first. */
function skipEntropy(buf: Buffer, st: ScanState): boolean {
  while (st.at + 1 < buf.length) {
    if (buf[st.at] !== 0xff) {
      st.at += 1;
      continue;
    }
    const next = buf[st.at + 1] ?? 0;
    // 0xFF00 is a stuffed data byte, RSTn sit inside the scan, 0xFFFF is fill.
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) st.at += 2;
    else if (next === 0xff) st.at += 1;
    else {
      st.entropy = false;
      return true;
    }
  }
  return false;
}

const MORE = -1;
const NOT_JPEG = -2;
/** A new SOI before this picture's EOI: the picture was cut short; start over at `st.at`. */
const RESTART = -3;

/** Index just past EOI, or MORE, NOT_JPEG or RESTART. */
function scanToEnd(buf: Buffer, st: ScanState): number {
  for (;;) {
    if (st.entropy && !skipEntropy(buf, st)) return MORE;
    if (st.at + 1 >= buf.length) return MORE;
    if (buf[st.at] !== 0xff) return NOT_JPEG;
    const marker = buf[st.at + 1] ?? 0;
    if (marker === 0xff) st.at += 1;
    else if (marker === EOI) return st.at + 2;
    else if (marker === SOI) return RESTART;
    else if (standalone(marker)) st.at += 2;
    else {
      if (st.at + 4 > buf.length) return MORE;
      const end = st.at + 2 + buf.readUInt16BE(st.at + 2);
      if (end > buf.length) return MORE;
      st.at = end;
      if (marker === SOS) st.entropy = true;
    }
  }
}

export interface JpegSplitter {
  push(chunk: Buffer): void;
}

/** Emits each whole JPEG of a concatenated stream; garbage between pictures is skipped. */
export function createJpegSplitter(onJpeg: (jpeg: Buffer) => void, maxBytes = 16 * 1024 * 1024): JpegSplitter {
  let buf: Buffer = Buffer.alloc(0);
  let st: ScanState | undefined;

  const findStart = (): boolean => {
    for (let i = 0; i + 1 < buf.length; i += 1) {
      if (buf[i] === 0xff && buf[i + 1] === SOI) {
        buf = buf.subarray(i);
        st = { at: 2, entropy: false };
        return true;
      }
    }
    buf = buf.subarray(Math.max(0, buf.length - 1));
    return false;
  };

  return {
    push(chunk) {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      for (;;) {
        if (!st && !findStart()) return;
        const state = st as ScanState;
        const end = scanToEnd(buf, state);
        // Needs more bytes, unless the picture has run away: then resynchronise on the next SOI.
        if (end === MORE && buf.length <= maxBytes) return;
        if (end >= 0) onJpeg(Buffer.from(buf.subarray(0, end)));
        buf = buf.subarray(end >= 0 ? end : end === RESTART ? state.at : 2);
        st = undefined;
      }
    },
  };
}

/** Width and height from the frame header, or undefined if there is none. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) return undefined;
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return undefined;
    const marker = jpeg[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (standalone(marker)) {
      at += 2;
      continue;
    }
    if (SOF.has(marker) && at + 9 <= jpeg.length) {
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    }
    if (marker === SOS || marker === EOI) return undefined;
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return undefined;
}

/** A whole baseline or progressive JPEG: SOI first, EOI last. */
export function isWholeJpeg(buf: Buffer): boolean {
  return (
    buf.length > 4 && buf[0] === 0xff && buf[1] === SOI && buf[buf.length - 2] === 0xff && buf[buf.length - 1] === EOI
  );
}
