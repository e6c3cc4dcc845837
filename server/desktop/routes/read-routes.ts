/** The desktop server read side: health, state, telemetry, move library (docs/contract.md, "Routes"). */
import { AppError } from '../../errors.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { RobotCore } from '../robot-core.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export function readRoutes(robot: RobotCore): RouteSpec[] {
  // While the daemon is not streaming (reconnecting, stopped, unreachable) the last known state
  // is still the best answer: it goes out marked `stale: true` with its age in `ageMs`. Only
  // before the first sample is there nothing to say (503).
  const freshStateJson = (): string => {
    const json = robot.stateJson();
    if (!json) {
      const snap = robot.feed.snapshot();
      const reason = Object.values(snap.problems)[0] ?? 'waiting for the first state from the daemon';
      throw new AppError('STATE_UNAVAILABLE', `robot state unavailable: ${reason}`);
    }
    return json;
  };
  return [
    {
      method: 'GET',
      path: '/api/health',
      access: 'public',
      summary: 'health object: daemon reachability, camera, pressure, stream, identity (name, kind, HTTPS port, CA fingerprint); readable from any origin',
      handler(ctx) {
        ctx.set('Cache-Control', 'no-store');
        // Public and credential-free: another cockpit's fleet page reads it from its own origin.
        ctx.set('Access-Control-Allow-Origin', '*');
        ctx.body = robot.health();
      },
    },
    {
      method: 'GET',
      path: '/api/state',
      access: 'key',
      summary: 'full robot state (degrees, millimetres); during a reconnect the last known one, stale: true',
      handler(ctx) {
        // Straight onto the response: the polled read of the cockpit, and Koa's type setter looks
        // the MIME type up on every call (bench/RESULTS.md, "Throughput").
        ctx.res.setHeader('Cache-Control', 'no-store');
        ctx.res.setHeader('Content-Type', JSON_TYPE);
        ctx.body = freshStateJson();
      },
    },
    {
      method: 'GET',
      path: '/api/telemetry',
      access: 'key',
      summary: 'state plus camera status',
      handler(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'application/json';
        ctx.body = `{"state":${freshStateJson()},"camera":${JSON.stringify(robot.health().camera)}}`;
      },
    },
    {
      method: 'GET',
      path: '/api/emotions',
      access: 'key',
      summary: 'recorded-move library grouped by family (cached)',
      async handler(ctx) {
        ctx.body = await robot.moves.get();
      },
    },
  ];
}
