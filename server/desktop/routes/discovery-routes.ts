/**
 * First-run setup and the fleet (server/discovery/README-discovery.md). Keyed like every
 * /api/console/ route; writes are also same-origin and rate-limited (control): they rename the
 * robot on the LAN and change which robots the owner's browser is sent to.
 */
import type { Context } from 'koa';
import type { FleetView } from '../../contract/discovery.ts';
import { AppError } from '../../errors.ts';
import type { Discovery } from '../../discovery/index.ts';
import { parseFingerprint } from '../../discovery/fleet.ts';
import { parseGuideState, parseRobotName } from '../../discovery/setup-store.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { replyNoStore } from '../../http/no-store.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { objectBody } from '../../http/settings-input.ts';

const idOf = (ctx: Context) => String(ctx.params.id ?? '');

export function discoveryRoutes(discovery: Discovery): RouteSpec[] {
  const fleetView = (): FleetView => ({
    advertising: discovery.advertising(),
    browsing: discovery.browsing(),
    peers: discovery.fleet.peers(),
  });
  return [
    {
      method: 'GET',
      path: '/api/console/setup',
      access: 'key',
      summary: 'first-run setup: {name, named, guide: open|finished|dismissed, advertising: {on, detail, localName}, httpsUrl}',
      handler: (ctx) => replyNoStore(ctx, discovery.view()),
    },
    {
      method: 'PUT',
      path: '/api/console/setup',
      access: 'key',
      control: true,
      summary: 'name the robot {name? 1-63 chars, at most 63 bytes of UTF-8} (shown, advertised) and/or set {guide?: open|finished|dismissed}',
      async handler(ctx) {
        const body = objectBody(await readJsonBody(ctx), ['name', 'guide']);
        const change = {
          ...(body.name !== undefined ? { name: parseRobotName(body.name) } : {}),
          ...(body.guide !== undefined ? { guide: parseGuideState(body.guide) } : {}),
        };
        try {
          replyNoStore(ctx, await discovery.update(change));
        } catch (err) {
          if (err instanceof AppError) throw err;
          throw new AppError('STORAGE_FAILED', 'the robot settings could not be saved; nothing changed');
        }
      },
    },
    {
      method: 'GET',
      path: '/api/console/fleet',
      access: 'key',
      summary: 'robots on the LAN and added by address: {advertising, browsing, peers: [{id, source, service, name, host, port, httpsPort, fingerprint, fingerprintChange…}]}',
      handler: (ctx) => replyNoStore(ctx, fleetView()),
    },
    {
      method: 'POST',
      path: '/api/console/fleet/peers',
      access: 'key',
      control: true,
      summary: 'add a robot by address: {host (IP or name), port? (8097), httpsPort? (8098)}; kept across restarts',
      async handler(ctx) {
        const body = objectBody(await readJsonBody(ctx), ['host', 'port', 'httpsPort']);
        replyNoStore(ctx, await discovery.fleet.add(body), 201);
      },
    },
    {
      method: 'DELETE',
      path: '/api/console/fleet/peers/:id',
      access: 'key',
      control: true,
      summary: 'forget a robot added by address (no body)',
      async handler(ctx) {
        await discovery.fleet.remove(idOf(ctx));
        replyNoStore(ctx, { ok: true });
      },
    },
    {
      method: 'POST',
      path: '/api/console/fleet/peers/:id/fingerprint',
      access: 'key',
      control: true,
      summary: "the fingerprint this browser read from the robot's /api/health: {fingerprint}; a change is flagged until trusted",
      async handler(ctx) {
        const body = objectBody(await readJsonBody(ctx), ['fingerprint']);
        replyNoStore(ctx, await discovery.fleet.recordFingerprint(idOf(ctx), parseFingerprint(body.fingerprint)));
      },
    },
    {
      method: 'POST',
      path: '/api/console/fleet/peers/:id/trust',
      access: 'key',
      control: true,
      summary: "accept a robot's new certificate fingerprint (no body); clears the warning",
      handler: async (ctx) => replyNoStore(ctx, await discovery.fleet.trust(idOf(ctx))),
    },
  ];
}
