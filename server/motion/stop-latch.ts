/**
 * The latched stop: once engaged, every motion route answers 409 STOP_LATCHED until someone
 * resumes from the dashboard. It lives in the robot core's services map under `stop`, so every
 * dashboard sees it in the state frame (`running` = the stop is engaged).
 */
import type { ServiceState } from '../contract/state.ts';
import { AppError } from '../errors.ts';

export interface StopLatch {
  engaged(): boolean;
  /** How many times it was engaged: a stop and its resume between two looks still count. */
  engagements(): number;
  /** Throws 409 STOP_LATCHED while engaged. */
  assertFree(): void;
  engage(detail: string): void;
  /** Returns whether it was engaged. */
  release(detail: string): boolean;
}

export const LATCHED_MESSAGE = 'stopped: resume from the dashboard first';

export function createStopLatch(services: Map<string, ServiceState>): StopLatch {
  let engaged = false;
  let engagements = 0;
  services.set('stop', { state: 'off', detail: 'not engaged' });
  return {
    engaged: () => engaged,
    engagements: () => engagements,
    assertFree() {
      if (engaged) throw new AppError('STOP_LATCHED', LATCHED_MESSAGE);
    },
    engage(detail) {
      engaged = true;
      engagements += 1;
      services.set('stop', { state: 'running', detail });
    },
    release(detail) {
      const was = engaged;
      engaged = false;
      services.set('stop', { state: 'off', detail });
      return was;
    },
  };
}
