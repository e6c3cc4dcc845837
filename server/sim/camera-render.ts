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

class Sensor implements CameraSensor {
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  private readonly subscribers = new Set<(rgba: Buffer) => void>();
  private timer: NodeJS.Timeout | undefined;
  private rendering = false;

  constructor(private readonly options: SensorOptions) {
    this.width = options.width ?? 640;
    this.height = options.height ?? 360;
    this.fps = options.fps ?? 15;
  }

  subscribe(onFrame: (rgba: Buffer) => void): () => void {
    this.subscribers.add(onFrame);
    this.timer ??= setInterval(() => this.tick(), 1000 / this.fps);
    return () => {
      this.subscribers.delete(onFrame);
      if (this.subscribers.size === 0) this.stopLoop();
    };
  }

  close(): void {
    this.subscribers.clear();
    this.stopLoop();
  }

  private tick(): void {
    // A slow render skips a tick rather than queueing: the picture is always the latest pose.
    if (this.rendering) return;
    this.rendering = true;
    renderFrame({ ...this.options.view(), width: this.width, height: this.height })
      .then((rgba) => {
        for (const deliver of this.subscribers) deliver(rgba);
      })
      .catch((error: unknown) => this.options.log.warn('camera frame not rendered', { error: String(error) }))
      .finally(() => {
        this.rendering = false;
      });
  }

  private stopLoop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

export function createCameraSensor(options: SensorOptions): CameraSensor {
  return new Sensor(options);
}
