/**
 * The simulated base's camera: a chase view from above, the base at the centre pointing up and
 * the world (a 0.5 m grid and a few coloured markers) turning and sliding under it as it drives.
 * Drawn as SVG and encoded to JPEG by sharp, a few frames a second while someone watches (the
 * frame hub starts and stops it). Labelled "SIMULATED" so nobody mistakes it for a real camera.
 */
import sharp from 'sharp';
import type { CameraFrame, CameraSource } from '../../camera/frame.ts';
import type { BaseTelemetry } from './types.ts';

export const SIM_CAMERA_WIDTH = 320;
export const SIM_CAMERA_HEIGHT = 240;
const PX_PER_M = 70;

/** Fixed markers of the simulated yard, metres: where the base is can be read off the picture. */
export const SIM_MARKERS: ReadonlyArray<{ x: number; y: number; color: string }> = [
  { x: 2, y: 0, color: '#f0a35e' },
  { x: 0, y: 2, color: '#6fb3ff' },
  { x: -2, y: -1, color: '#4cc38a' },
  { x: 3, y: 3, color: '#ef6b6b' },
  { x: -1.5, y: 2.5, color: '#c7a6ff' },
];

function gridLines(cx: number, cy: number): string {
  const lines: string[] = [];
  const reach = 4;
  const x0 = Math.floor((cx - reach) * 2) / 2;
  const y0 = Math.floor((cy - reach) * 2) / 2;
  for (let i = 0; i <= reach * 4; i += 1) {
    const x = x0 + i / 2;
    const y = y0 + i / 2;
    lines.push(
      `<line x1="${x}" y1="${y0}" x2="${x}" y2="${y0 + reach * 2}"/>`,
      `<line x1="${x0}" y1="${y}" x2="${x0 + reach * 2}" y2="${y}"/>`,
    );
  }
  return lines.join('');
}

/** The SVG of one frame: pure, so it can be checked without encoding. */
export function simCameraSvg(t: BaseTelemetry): string {
  const { x, y, heading } = t.pose;
  const turn = 90 - (heading * 180) / Math.PI;
  const world =
    `<g transform="translate(${SIM_CAMERA_WIDTH / 2} ${SIM_CAMERA_HEIGHT * 0.62}) scale(${PX_PER_M} ${-PX_PER_M}) rotate(${turn.toFixed(3)}) translate(${(-x).toFixed(4)} ${(-y).toFixed(4)})">` +
    `<g stroke="#2a323d" stroke-width="0.02">${gridLines(x, y)}</g>` +
    SIM_MARKERS.map((m) => `<circle cx="${m.x}" cy="${m.y}" r="0.18" fill="${m.color}"/>`).join('') +
    `<circle cx="0" cy="0" r="0.06" fill="#e4e8ee"/></g>`;
  const base = `<g transform="translate(${SIM_CAMERA_WIDTH / 2} ${SIM_CAMERA_HEIGHT * 0.62})"><rect x="-11" y="-14" width="22" height="28" rx="4" fill="#5cc8b8"/><path d="M0 -24 L7 -14 L-7 -14 Z" fill="#5cc8b8"/></g>`;
  const label = `<text x="8" y="18" font-family="sans-serif" font-size="13" fill="#e4e8ee">SIMULATED · x ${x.toFixed(2)} m  y ${y.toFixed(2)} m</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIM_CAMERA_WIDTH}" height="${SIM_CAMERA_HEIGHT}"><rect width="100%" height="100%" fill="#0e1116"/>${world}${base}${label}</svg>`;
}

export function createSimCamera(options: {
  telemetry: () => BaseTelemetry;
  fps: number;
  now?: () => number;
}): CameraSource {
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let seq = 0;
  let busy = false;
  return {
    name: 'simulated base camera',
    async start(onFrame: (frame: CameraFrame) => void, onError: (error: Error) => void) {
      const render = async () => {
        if (busy) return;
        busy = true;
        try {
          const jpeg = await sharp(Buffer.from(simCameraSvg(options.telemetry())))
            .jpeg({ quality: 70 })
            .toBuffer();
          if (timer)
            onFrame({ jpeg, width: SIM_CAMERA_WIDTH, height: SIM_CAMERA_HEIGHT, capturedAt: now(), seq: (seq += 1) });
        } catch (error) {
          onError(error instanceof Error ? error : new Error(String(error)));
        } finally {
          busy = false;
        }
      };
      timer = setInterval(() => void render(), Math.round(1000 / Math.max(1, options.fps)));
      timer.unref();
      void render();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
