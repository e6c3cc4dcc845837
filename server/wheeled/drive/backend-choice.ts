/**
 * Which drive backend the wheeled server runs: the simulated base by default, or a rover
 * SDK reached over HTTP (README-wheeled.md, "Real rover").
 */
import type { Log } from '../../log.ts';
import { createHttpRover } from './http-rover.ts';
import { createSimBase } from './sim-base.ts';
import type { DriveBackend } from './types.ts';

/** The simulated base (default), or a rover SDK reached over HTTP (README-wheeled.md, "Real rover"). */
export type BackendChoice =
  | { kind: 'sim' }
  | {
      kind: 'http';
      url: string;
      invertAngular?: boolean;
      camera?: boolean;
      limits?: { maxLinear: number; maxAngular: number };
    };

export function createBackend(
  choice: BackendChoice | undefined,
  log: Log,
  fetchImpl: typeof fetch | undefined,
): DriveBackend {
  if (!choice || choice.kind === 'sim') return createSimBase();
  return createHttpRover({
    url: choice.url,
    log: log.child('rover'),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    ...(choice.invertAngular ? { invertAngular: true } : {}),
    ...(choice.camera === false ? { cameraPath: null } : {}),
    ...(choice.limits ? { limits: choice.limits } : {}),
  });
}
