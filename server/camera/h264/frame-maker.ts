/**
 * Turns received H.264 access units into camera frames: every unit becomes an H.264 frame
 * (numbered and stamped on arrival), and while JPEG is wanted a long-running decoder turns
 * them into JPEG frames that keep their unit's number and capture time. The access units since
 * the last keyframe are kept, so a decoder started mid-stream catches up at once instead of
 * waiting for the producer's next keyframe.
 */
import type { Log } from '../../log.ts';
import type { CameraFrame, H264AccessUnit } from '../frame.ts';
import { jpegSize } from '../jpeg.ts';
import { startJpegDecoder, type DecodeMeta, type JpegDecoder } from './jpeg-decoder.ts';
import { joinAnnexB, NAL, nalType, splitAnnexB } from './nal.ts';
import { spsPictureSize } from './sps.ts';

export interface FrameMakerOptions {
  log: Log;
  emit(frame: CameraFrame): void;
  /** Asks the producer for a keyframe (a decoder is waiting for one). */
  requestKeyframe(): void;
  jpegQuality?: number;
  ffmpegBinary?: string;
  now?: () => number;
}

export interface H264FrameMaker {
  accessUnit(au: H264AccessUnit): void;
  /** SPS/PPS from the SDP, put in front of keyframes that arrive without them. */
  setParameterSets(nals: Buffer[]): void;
  wantJpeg(on: boolean): void;
  stop(): void;
}

/** Bounds the catch-up backlog (a long GOP is then joined at its next keyframe instead). */
const MAX_GOP_UNITS = 150;

interface Stamped {
  au: H264AccessUnit;
  seq: number;
  capturedAt: number;
}

export function createH264FrameMaker(o: FrameMakerOptions): H264FrameMaker {
  const now = o.now ?? Date.now;
  let size = { width: 0, height: 0 };
  let seq = 0;
  let parameterSets: Buffer[] = [];
  let gop: Stamped[] = [];
  let wanted = false;
  let decoder: JpegDecoder | undefined;
  /** The decoder has had a keyframe; before that, other units would only make it complain. */
  let primed = false;

  const complete = (au: H264AccessUnit): H264AccessUnit => {
    if (!au.keyframe) return au;
    const nals = splitAnnexB(au.data);
    const sps = nals.find((nal) => nalType(nal) === NAL.SPS);
    const read = sps ? spsPictureSize(sps) : undefined;
    if (read) size = read;
    if (sps || parameterSets.length === 0) return au;
    return { keyframe: true, data: joinAnnexB([...parameterSets, ...nals]) };
  };

  const feed = (unit: Stamped, emit: boolean): void => {
    if (!decoder) return;
    if (!primed && !unit.au.keyframe) return o.requestKeyframe();
    primed = true;
    const meta: DecodeMeta = { seq: unit.seq, capturedAt: unit.capturedAt, emit };
    if (!decoder.decode(unit.au, meta)) {
      o.log.debug('JPEG decoder fell behind; restarting it at the next keyframe');
      stopDecoder();
      startDecoder();
    }
  };

  const stopDecoder = (): void => {
    decoder?.stop();
    decoder = undefined;
    primed = false;
  };

  const startDecoder = (): void => {
    decoder = startJpegDecoder({
      log: o.log,
      onJpeg: (jpeg, meta) => o.emit({ jpeg, ...(jpegSize(jpeg) ?? size), capturedAt: meta.capturedAt, seq: meta.seq }),
      onExit: (reason) => {
        o.log.debug('JPEG decoder ended', { reason });
        decoder = undefined;
        primed = false;
      },
      ...(o.jpegQuality ? { quality: o.jpegQuality } : {}),
      ...(o.ffmpegBinary ? { binary: o.ffmpegBinary } : {}),
    });
    // Catch up through the current GOP; only its last picture is shown.
    gop.forEach((unit, i) => feed(unit, i === gop.length - 1));
  };

  return {
    accessUnit(raw) {
      const au = complete(raw);
      seq += 1;
      const unit: Stamped = { au, seq, capturedAt: now() };
      if (au.keyframe) gop = [unit];
      else if (gop.length > 0 && gop.length < MAX_GOP_UNITS) gop.push(unit);
      else gop = [];
      o.emit({ h264: au, ...size, capturedAt: unit.capturedAt, seq });
      // A decoder that died is brought back at a keyframe, so a missing ffmpeg is retried once per GOP.
      if (wanted && !decoder && au.keyframe) startDecoder();
      else feed(unit, true);
    },
    setParameterSets(nals) {
      parameterSets = nals.filter((nal) => nalType(nal) === NAL.SPS || nalType(nal) === NAL.PPS);
    },
    wantJpeg(on) {
      wanted = on;
      if (on && !decoder) startDecoder();
      if (!on) stopDecoder();
    },
    stop() {
      wanted = false;
      stopDecoder();
      gop = [];
    },
  };
}
