/**
 * The wheeled server's base and drive routes (docs/contract.md, "How the wheeled server behaves": POST /api/control,
 * items 2 and 4): the state of the base, drive frames and the stop, the speed presets, the
 * thinker drive gate and the odometry reset. Control routes pass the shared control guard
 * (rate limit, then same-origin) through the route table's `control` flag.
 */
import type { Context } from 'koa';
import type { DriveSettingsView } from '../../contract/wheeled.ts';
import { badRequest } from '../../errors.ts';
import { callerOf } from '../../http/access-gate.ts';
import { clientKey } from '../../http/control-guard.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { WheeledBase } from '../drive/base.ts';
import type { DriveAuthor } from '../drive/drive-controller.ts';
import { driverOf } from '../drive/driver.ts';
import { parseDriveInput } from '../drive/frame-input.ts';

function authorOf(ctx: Context): DriveAuthor {
  const caller = callerOf(ctx);
  return { driver: driverOf(caller), owner: `http:${clientKey(ctx, caller)}` };
}

function reply(ctx: Context, body: unknown): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

export function driveRoutes(base: WheeledBase): RouteSpec[] {
  const settingsView = (): DriveSettingsView => ({
    ...base.settings.view(),
    gate: base.controller.gate(),
    limits: base.state().limits,
  });
  return [
    {
      method: 'GET',
      path: '/api/state',
      access: 'key',
      summary: 'state of the base: pose, velocity, running frame, gate, preset, backend presence, trail',
      handler: (ctx) => reply(ctx, base.state({ trail: true })),
    },
    {
      method: 'POST',
      path: '/api/control',
      access: 'key',
      control: true,
      summary:
        'one drive frame {linear, angular (-1..1), duration (≤1 s)} or {stop: true}; thinker gate and clamp apply',
      async handler(ctx) {
        const input = parseDriveInput(await readJsonBody(ctx));
        const author = authorOf(ctx);
        if ('stop' in input) {
          base.controller.stop(author);
          return reply(ctx, { ok: true, stopped: true });
        }
        reply(ctx, base.controller.frame(input, author));
      },
    },
    {
      method: 'POST',
      path: '/api/control/stop',
      access: 'key',
      control: true,
      safetyStop: true,
      summary: 'stop the base at once; never rate limited',
      handler(ctx) {
        base.controller.stop(authorOf(ctx));
        reply(ctx, { ok: true, stopped: true });
      },
    },
    {
      method: 'GET',
      path: '/api/drive/settings',
      access: 'key',
      summary: 'speed presets {preset, presets: {slow, normal, fast}}, the gate and the limits',
      handler: (ctx) => reply(ctx, settingsView()),
    },
    {
      method: 'PUT',
      path: '/api/drive/settings',
      access: 'key',
      control: true,
      summary: 'choose or edit presets: {preset?, presets?: {slow?, normal?, fast?} (0.05-1)}',
      async handler(ctx) {
        await base.settings.update(await readJsonBody(ctx));
        reply(ctx, settingsView());
      },
    },
    {
      method: 'POST',
      path: '/api/drive/gate',
      access: 'key',
      control: true,
      summary: 'open or close the thinker drive gate: {open: boolean}; closing stops the thinker at once',
      async handler(ctx) {
        const body = (await readJsonBody(ctx)) as Record<string, unknown> | null;
        if (typeof body?.open !== 'boolean') throw badRequest('open must be true or false');
        reply(ctx, base.controller.setGate(body.open, authorOf(ctx).driver));
      },
    },
    {
      method: 'POST',
      path: '/api/drive/reset',
      access: 'key',
      control: true,
      summary: 'stop, make the current position the odometry origin and clear the trail',
      handler(ctx) {
        base.resetOdometry();
        reply(ctx, base.state({ trail: true }));
      },
    },
  ];
}
