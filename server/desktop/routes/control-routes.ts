/**
 * The desktop server's control routes (docs/contract.md, "Control routes"). All are POST, access
 * key, and control: the access gate rate-limits and checks the Origin first. Each handler
 * validates its body at the edge (400 naming the field, nothing reaches the daemon), calls one
 * feature of the Control service and replies. Field tables: server/motion/README-control.md.
 */
import type { Context } from 'koa';
import type { CredentialKind } from '../../contract/ws.ts';
import { callerOf, credentialOf } from '../../http/access-gate.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import * as input from '../../motion/control-input.ts';
import type { Control } from '../../motion/control.ts';

export interface ControlRouteDeps {
  control: Control;
}

type Handler = (ctx: Context, credential: CredentialKind) => Promise<unknown> | unknown;

function post(path: string, summary: string, handle: Handler): RouteSpec {
  return {
    method: 'POST',
    path,
    access: 'key',
    control: true,
    summary,
    async handler(ctx) {
      const credential = credentialOf(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await handle(ctx, credential);
    },
  };
}

export function controlRoutes({ control }: ControlRouteDeps): RouteSpec[] {
  const body = (ctx: Context) => readJsonBody(ctx);
  return [
    post(
      '/api/control/look',
      'move the head: {yaw, pitch, roll (deg), x, y, z (mm), antennas? [right, left] deg, body_yaw? deg, duration? s (1)}; clamped, clamps reported',
      async (ctx, c) => control.look(input.parseLook(await body(ctx)), c),
    ),
    post('/api/control/antennas', 'set antenna angles: {right, left} in degrees (±170, clamped)', async (ctx, c) =>
      control.antennas(input.parseAntennas(await body(ctx)), c),
    ),
    post('/api/control/home', 'neutral pose: head straight, antennas ±10°, body 0° (no body)', (_ctx, c) =>
      control.home(c),
    ),
    post(
      '/api/control/express',
      'play a recorded move by name: {name}; 404 when not in /api/emotions',
      async (ctx, c) => control.express(input.parseExpress(await body(ctx)).name, c),
    ),
    post('/api/control/wake', 'motors on, then the wake-up move (no body)', (_ctx, c) => control.wake(c)),
    post('/api/control/sleep', 'sleep pose, then motors relaxed (no body)', (_ctx, c) => control.sleep(c)),
    post('/api/control/motors', 'motor mode: {mode: "enabled" | "disabled" | "gravity_compensation"}', async (ctx, c) =>
      control.motors(input.parseMotors(await body(ctx)).mode, c),
    ),
    post(
      '/api/control/volume',
      'speaker volume: {level} integer 0-100; answered at once, sent debounced (~400 ms)',
      async (ctx, c) => control.volume(input.parseVolume(await body(ctx)).level, c),
    ),
    post(
      '/api/control/demo',
      'demo mode: {on: boolean}; on pauses autonomous personas, off resumes them',
      async (ctx, c) => control.demo(input.parseDemo(await body(ctx)).on, c),
    ),
    post('/api/control/reel', 'showcase reel: {action: "start" | "abort"}; 409 when started twice', async (ctx, c) =>
      control.reel(input.parseReel(await body(ctx)).action, c),
    ),
    post('/api/control/say', 'speak on the robot: {text} 1-1000 chars; answers {engine, seconds}', async (ctx, c) =>
      control.say(input.parseSay(await body(ctx)).text, c),
    ),
    // The stop reads no body: a malformed one must never keep the robot moving.
    {
      ...post(
        '/api/control/stop',
        'latched stop: cancel every move, reel, speech, joystick; pause personas (no body); never rate limited',
        // Which passkey pressed it, for the stop's notice (server/motion/emergency-stop.ts, StopNotice).
        (ctx, c) => control.stop(c, callerOf(ctx).credentialId),
      ),
      safetyStop: true,
    },
    post('/api/console/resume', 'release the latched stop (no body)', (_ctx, c) => control.resume(c)),
  ];
}
