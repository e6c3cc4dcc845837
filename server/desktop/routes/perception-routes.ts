/**
 * Face tracking and turn-toward-speaker routes (docs/contract.md, "Routes").
 * Writes are `key+loopback`: personas on the robot set holds and toggle both controllers
 * without a key (Authentication rule 2). They are not control routes: a hold is a pause, not a
 * motion, and a persona renewing its hold must never meet the control rate limit.
 */
import type { HoldAnswer } from '../../contract/perception.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { replyNoStore } from '../../http/no-store.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { DoaTurner } from '../../perception/doa-turner.ts';
import { parseEnabled, parseHold } from '../../perception/perception-input.ts';
import type { TrackingController } from '../../perception/tracking.ts';

export interface PerceptionRouteDeps {
  tracking: TrackingController;
  doa: DoaTurner;
}

export function perceptionRoutes({ tracking, doa }: PerceptionRouteDeps): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/tracking',
      access: 'key',
      summary: 'face tracking status: enabled, detected, x, y, holds [{name, remaining}], paused, engine',
      handler: (ctx) => replyNoStore(ctx, tracking.status()),
    },
    {
      method: 'POST',
      path: '/api/tracking',
      access: 'key+loopback',
      summary: 'daemon face tracker on or off: {enabled: boolean}; answers the tracking status',
      async handler(ctx) {
        const { enabled } = parseEnabled(await readJsonBody(ctx));
        replyNoStore(ctx, await tracking.setEnabled(enabled));
      },
    },
    {
      method: 'POST',
      path: '/api/tracking/hold',
      access: 'key+loopback',
      summary:
        'named hold pausing tracking: {name, on? (true), ttl? s (20, clamped 0.5-120)}; answers the hold applied',
      async handler(ctx) {
        const input = parseHold(await readJsonBody(ctx));
        const hold = await tracking.hold(input.name, input.on, input.ttl);
        const clamped = input.on && input.ttl !== undefined && hold.ttl !== input.ttl;
        const answer: HoldAnswer = {
          hold: clamped ? { ...hold, requested: input.ttl } : hold,
          tracking: tracking.status(),
        };
        replyNoStore(ctx, answer);
      },
    },
    {
      method: 'GET',
      path: '/api/doa',
      access: 'key',
      summary: 'turn-toward-speaker status: enabled, bearing, why, turns, windupRefusals, sign {agree, disagree}',
      handler: (ctx) => replyNoStore(ctx, doa.status()),
    },
    {
      method: 'POST',
      path: '/api/doa',
      access: 'key+loopback',
      summary: 'turn toward speech when tracking has no lock: {enabled: boolean}; default on',
      async handler(ctx) {
        const { enabled } = parseEnabled(await readJsonBody(ctx));
        replyNoStore(ctx, doa.setEnabled(enabled));
      },
    },
  ];
}
