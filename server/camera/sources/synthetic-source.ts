/**
 * A camera that needs no robot, no ffmpeg and no WebRTC: a test card (colour bars, a bar that
 * sweeps across, the picture number) encoded to JPEG in-process by sharp, at a steady rate on the
 * server clock. Dashboards and UI tests that need a picture use it (`ROBOT_CAMERA=synthetic`); the
 * daemon's WebRTC path keeps its own integration tests (webrtc-source.test.ts).
 */
import sharp from 'sharp';
import { systemClock, type TimerClock } from '../../clock.ts';
import type { CameraFrame, CameraSource } from '../frame.ts';

export interface SyntheticSourceOptions {
  width?: number;
  height?: number;
  fps?: number;
  clock?: TimerClock;
}

/** Distinct pictures rendered once at start and then shown in turn, so a frame costs no encode. */
const PICTURES = 12;
const BARS = ['#c0c0c0', '#c0c000', '#00c0c0', '#00c000', '#c000c0', '#c00000', '#0000c0'];

function testCardSvg(width: number, height: number, index: number): string {
  const barWidth = width / BARS.length;
  const bars = BARS.map((fill, i) => `<rect x="${i * barWidth}" y="0" width="${barWidth + 1}" height="${height}" fill="${fill}"/>`);
  const sweep = ((index + 0.5) / PICTURES) * width;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    bars.join('') +
    `<rect x="${sweep - 6}" y="0" width="12" height="${height}" fill="#ffffff"/>` +
    `<rect x="0" y="${height - 22}" width="${width}" height="22" fill="#000000"/>` +
    `<text x="8" y="${height - 6}" font-family="DejaVu Sans Mono, monospace" font-size="14" fill="#ffffff">SYNTHETIC CAMERA ${index + 1}/${PICTURES}</text>` +
    `</svg>`
  );
}

async function renderPictures(width: number, height: number): Promise<Buffer[]> {
  const pictures: Buffer[] = [];
  for (let i = 0; i < PICTURES; i += 1) {
    pictures.push(await sharp(Buffer.from(testCardSvg(width, height, i))).jpeg({ quality: 80 }).toBuffer());
  }
  return pictures;
}

export function createSyntheticSource(options: SyntheticSourceOptions = {}): CameraSource {
  const width = options.width ?? 640;
  const height = options.height ?? 360;
  const periodMs = 1000 / (options.fps ?? 15);
  const clock = options.clock ?? systemClock;
  let pictures: Promise<Buffer[]> | undefined;
  let cancel: (() => void) | undefined;
  let seq = 0;

  return {
    name: `synthetic ${width}x${height}`,
    async start(onFrame) {
      pictures ??= renderPictures(width, height);
      const rendered = await pictures;
      const next = () => {
        const frame: CameraFrame = { jpeg: rendered[seq % PICTURES], width, height, capturedAt: clock.now(), seq };
        seq += 1;
        cancel = clock.schedule(next, periodMs);
        onFrame(frame);
      };
      next();
    },
    async stop() {
      cancel?.();
      cancel = undefined;
    },
  };
}
