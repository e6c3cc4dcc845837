/**
 * The simulated camera picture agrees with simulated face tracking: the person is drawn where
 * observeFace says the head camera sees it, and turning the head pans the room.
 */
import { describe, expect, it } from 'vitest';
import { renderFrame } from './camera-render.ts';
import { COUNTER_BITS, COUNTER_CELL, type SceneView } from './camera-scene.ts';
import { poseFromXyzrpy } from './pose.ts';
import { observeFace, type WorldFace } from './tracking.ts';

const DEG = Math.PI / 180;
const W = 640;
const H = 360;
/** The face's skin tone in camera-scene.ts. */
const SKIN = [0xf1, 0xc2, 0x7d];

function view(yawDeg: number, pitchDeg: number, face: WorldFace | null): SceneView {
  return { yaw: yawDeg * DEG, pitch: pitchDeg * DEG, roll: 0, face, clockMs: 0, width: W, height: H };
}

function pixel(rgba: Buffer, x: number, y: number): number[] {
  const at = (Math.round(y) * W + Math.round(x)) * 4;
  return [rgba[at] ?? 0, rgba[at + 1] ?? 0, rgba[at + 2] ?? 0];
}

function isSkin(rgb: number[]): boolean {
  return rgb.every((v, i) => Math.abs(v - (SKIN[i] ?? 0)) < 12);
}

describe('simulated camera scene', () => {
  it('draws the person where face tracking sees it, and turning the head pans the view', async () => {
    const face = { yaw: 10 * DEG, pitch: 5 * DEG };
    for (const [headYaw, headPitch] of [
      [0, 0],
      [25, 0],
      [-10, 12],
    ] as const) {
      const rgba = await renderFrame(view(headYaw, headPitch, face));
      expect(rgba.length).toBe(W * H * 4);
      const seen = observeFace(
        face,
        poseFromXyzrpy({ x: 0, y: 0, z: 0, roll: 0, pitch: headPitch * DEG, yaw: headYaw * DEG }),
        0,
      );
      expect(seen.detected).toBe(true);
      // Tracking's x and y are −1..1 across the picture; the nose sits a little below the eyes.
      const x = W / 2 + (seen.x ?? 0) * (W / 2);
      const y = H / 2 + (seen.y ?? 0) * (H / 2) + 4;
      expect(isSkin(pixel(rgba, x, y))).toBe(true);
    }
  });

  it('shows no person when there is none, or when the head looks away', async () => {
    const empty = await renderFrame(view(0, 0, null));
    expect(isSkin(pixel(empty, W / 2, H / 2 + 4))).toBe(false);
    const away = await renderFrame(view(60, 0, { yaw: -30 * DEG, pitch: 0 }));
    let skin = 0;
    for (let x = 0; x < W; x += 4) for (let y = 0; y < H; y += 4) if (isSkin(pixel(away, x, y))) skin += 1;
    expect(skin).toBe(0);
  });
});

describe('frame counter strip', () => {
  it('draws the clock modulo 2^24 as white and black cells along the top edge, readable from pixels', async () => {
    const clockMs = 1_764_000_123_456;
    const rgba = await renderFrame({ yaw: 0, pitch: 0, roll: 0, face: null, clockMs, width: 640, height: 360 });
    let value = 0;
    for (let i = 0; i < COUNTER_BITS; i += 1) {
      const at = ((COUNTER_CELL >> 1) * 640 + i * COUNTER_CELL + (COUNTER_CELL >> 1)) * 4;
      value = value * 2 + ((rgba[at] ?? 0) > 128 ? 1 : 0);
    }
    expect(value).toBe(clockMs % 2 ** COUNTER_BITS);
  });
});
