/**
 * The black box recorder's entry (README-recorder.md): the recorder over its ring and kept
 * recordings, fed by the cockpit's own sources. index.ts builds one per robot and starts it
 * after the robot core; features hand it their broadcasts, control routes and joystick frames.
 */
import { join } from 'node:path';
import type { TimerClock } from '../clock.ts';
import type { Log } from '../log.ts';
import { createRecorder, type Recorder } from './recorder.ts';
import { createRecorderSources, type RecorderInputs, type RecorderTap } from './sources.ts';

export type { Recorder } from './recorder.ts';
export { NO_RECORDER_TAP, type RecorderTap, type RecorderInputs } from './sources.ts';
export { buildReplay, frameAt } from './replay.ts';

export interface RecorderSettings {
  maxMinutes: number;
  maxBytes: number;
  cameraFps: number;
}

export interface BlackBox {
  readonly recorder: Recorder;
  readonly tap: RecorderTap;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface BlackBoxOptions {
  dataDir: string;
  settings: RecorderSettings;
  inputs: RecorderInputs;
  /** Time, and the camera sampling's ticks (a manual clock in tests). */
  clock: TimerClock;
  log: Log;
  secrets: () => readonly string[];
  /** Tests drive ticks themselves (null); the cockpit ticks every second. */
  tickMs?: number | null;
  segmentMs?: number;
}

export function createBlackBox(options: BlackBoxOptions): BlackBox {
  const recorder = createRecorder({
    dir: join(options.dataDir, 'recordings'),
    ...options.settings,
    clock: options.clock,
    log: options.log,
    secrets: options.secrets,
    ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
    ...(options.segmentMs !== undefined ? { segmentMs: options.segmentMs } : {}),
  });
  const sources = createRecorderSources(recorder, options.inputs, options.clock);
  let healthTimer: NodeJS.Timeout | undefined;
  return {
    recorder,
    tap: sources,
    async start() {
      await recorder.start();
      if (!recorder.status().recording) return;
      sources.attach();
      if (options.tickMs !== null) {
        healthTimer = setInterval(() => sources.sampleHealth(), options.tickMs ?? 1000);
        healthTimer.unref();
      }
    },
    async stop() {
      clearInterval(healthTimer);
      sources.detach();
      await recorder.stop();
    },
  };
}
