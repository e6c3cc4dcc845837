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

class FrameMaker implements H264FrameMaker {
  private size = { width: 0, height: 0 };
  private seq = 0;
  private parameterSets: Buffer[] = [];
  private gop: Stamped[] = [];
  private wanted = false;
  private decoder: JpegDecoder | undefined;
  /** The decoder has had a keyframe; before that, other units would only make it complain. */
  private primed = false;
  private readonly now: () => number;

  constructor(private readonly o: FrameMakerOptions) {
    this.now = o.now ?? Date.now;
  }

  accessUnit(raw: H264AccessUnit): void {
    const au = this.complete(raw);
    this.seq += 1;
    const unit: Stamped = { au, seq: this.seq, capturedAt: this.now() };
    if (au.keyframe) this.gop = [unit];
    else if (this.gop.length > 0 && this.gop.length < MAX_GOP_UNITS) this.gop.push(unit);
    else this.gop = [];
    this.o.emit({ h264: au, ...this.size, capturedAt: unit.capturedAt, seq: unit.seq });
    // A decoder that died is brought back at a keyframe, so a missing ffmpeg is retried once per GOP.
    if (this.wanted && !this.decoder && au.keyframe) this.startDecoder();
    else this.feed(unit, true);
  }

  setParameterSets(nals: Buffer[]): void {
    this.parameterSets = nals.filter((nal) => nalType(nal) === NAL.SPS || nalType(nal) === NAL.PPS);
  }

  wantJpeg(on: boolean): void {
    this.wanted = on;
    if (on && !this.decoder) this.startDecoder();
    if (!on) this.stopDecoder();
  }

  stop(): void {
    this.wanted = false;
    this.stopDecoder();
    this.gop = [];
  }

  /** Reads the picture size from a keyframe's SPS; adds the SDP's SPS/PPS when it has none. */
  private complete(au: H264AccessUnit): H264AccessUnit {
    if (!au.keyframe) return au;
    const nals = splitAnnexB(au.data);
    const sps = nals.find((nal) => nalType(nal) === NAL.SPS);
    const read = sps ? spsPictureSize(sps) : undefined;
    if (read) this.size = read;
    if (sps || this.parameterSets.length === 0) return au;
    return { keyframe: true, data: joinAnnexB([...this.parameterSets, ...nals]) };
  }

  private feed(unit: Stamped, emit: boolean): void {
    if (!this.decoder) return;
    if (!this.primed && !unit.au.keyframe) return this.o.requestKeyframe();
    this.primed = true;
    const meta: DecodeMeta = { seq: unit.seq, capturedAt: unit.capturedAt, emit };
    if (!this.decoder.decode(unit.au, meta)) {
      this.o.log.debug('JPEG decoder fell behind; restarting it at the next keyframe');
      this.stopDecoder();
      this.startDecoder();
    }
  }

  private startDecoder(): void {
    const { o } = this;
    this.decoder = startJpegDecoder({
      log: o.log,
      onJpeg: (jpeg, meta) =>
        o.emit({ jpeg, ...(jpegSize(jpeg) ?? this.size), capturedAt: meta.capturedAt, seq: meta.seq }),
      onExit: (reason) => {
        o.log.debug('JPEG decoder ended', { reason });
        this.decoder = undefined;
        this.primed = false;
      },
      ...(o.jpegQuality ? { quality: o.jpegQuality } : {}),
      ...(o.ffmpegBinary ? { binary: o.ffmpegBinary } : {}),
    });
    // Catch up through the current GOP; only its last picture is shown.
    const backlog = this.gop;
    backlog.forEach((unit, i) => this.feed(unit, i === backlog.length - 1));
  }

  private stopDecoder(): void {
    this.decoder?.stop();
    this.decoder = undefined;
    this.primed = false;
  }
}

export function createH264FrameMaker(options: FrameMakerOptions): H264FrameMaker {
  return new FrameMaker(options);
}
