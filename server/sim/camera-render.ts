/**
 * The simulated camera sensor: renders the scene from the present head pose at a fixed rate
 * while at least one session watches, and hands the same RGBA frame to every session's
 * encoder. Nobody watching means nothing is rendered, so an idle simulator costs no CPU.
 */
import sharp from 'sharp';
import type { Log } from '../log.ts';
import { renderSceneSvg, type SceneView } from './camera-scene.ts';

export type ViewSource = () => Omit<SceneView, 'width' | 'height'>;

export interface CameraSensor {
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  /** Starts the render loop on the first subscriber; the returned function unsubscribes. */
  subscribe(onFrame: (rgba: Buffer) => void): () => void;
  close(): void;
}

export interface SensorOptions {
  view: ViewSource;
  log: Log;
  width?: number;
  height?: number;
  fps?: number;
}

/** Renders one frame as raw RGBA, `width * height * 4` bytes. */
export async function renderFrame(view: SceneView): Promise<Buffer> {
  return sharp(Buffer.from(renderSceneSvg(view)))
    .ensureAlpha()
    .raw()
    .toBuffer();
}

export function createCameraSensor(options: SensorOptions): CameraSensor {
  const width = options.width ?? 640;
  const height = options.height ?? 360;
  const fps = options.fps ?? 15;
  const subscribers = new Set<(rgba: Buffer) => void>();
  let timer: NodeJS.Timeout | undefined;
  let rendering = false;

  const tick = (): void => {
    // A slow render skips a tick rather than queueing: the picture is always the latest pose.
    if (rendering) return;
    rendering = true;
    renderFrame({ ...options.view(), width, height })
      .then((rgba) => {
        for (const deliver of subscribers) deliver(rgba);
      })
      .catch((error: unknown) => options.log.warn('camera frame not rendered', { error: String(error) }))
      .finally(() => {
        rendering = false;
      });
  };
  const stopLoop = (): void => {
    clearInterval(timer);
    timer = undefined;
  };

  return {
    width,
    height,
    fps,
    subscribe(onFrame) {
      subscribers.add(onFrame);
      timer ??= setInterval(tick, 1000 / fps);
      return () => {
        subscribers.delete(onFrame);
        if (subscribers.size === 0) stopLoop();
      };
    },
    close() {
      subscribers.clear();
      stopLoop();
    },
  };
}
