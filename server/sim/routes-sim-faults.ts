/**
 * /sim controls for the robot-care faults: the app store's crashing app (when it dies), a new
 * store revision of an app, a motor controller error and a microphone that records only zeros.
 * Same conventions as routes-sim.ts: JSON in, the new /sim/status out, 400 `{"error"}`.
 */
import { catalogApp } from './app-catalog.ts';
import type { SimContext } from './context.ts';
import { DetailError, route, type Route } from './http-kit.ts';
import { bool, num, SimInputError, simStatus } from './sim-input.ts';

type Post = (path: string, apply: (b: Record<string, unknown>) => void) => Route;

export function simFaultRoutes(ctx: SimContext, post: Post): Route[] {
  return [
    post('/sim/apps', (b) => {
      if (b.crashAfterMs !== undefined)
        ctx.apps.crashAfterMs = b.crashAfterMs === null ? null : num(b, 'crashAfterMs', 0, 600_000);
      if (b.publish !== undefined) {
        if (typeof b.publish !== 'string' || !catalogApp(b.publish))
          throw new SimInputError('publish must name an app of the simulated store');
        ctx.apps.publish(b.publish);
      }
    }),
    // No body: the running app dies now.
    route('POST', '/sim/apps/crash', () => {
      if (!ctx.apps.crashNow()) throw new DetailError(409, 'no app is running');
      return { json: simStatus(ctx) };
    }),
    post('/sim/motors', (b) => {
      const error = b.error;
      if (error !== null && (typeof error !== 'string' || error.trim() === '' || error.length > 500))
        throw new SimInputError('error must be null or a message of 1..500 characters');
      ctx.faults.motorError = error;
    }),
    post('/sim/microphone/silent', (b) => {
      ctx.camera.setSilent(bool(b, 'on'));
    }),
  ];
}
