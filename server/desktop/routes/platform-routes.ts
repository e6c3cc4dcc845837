/**
 * The platform card's console routes (issue 10): status, enrolment with pasted values,
 * connect, disconnect, forget, firmware channel. Thin: the body is checked at the edge (types,
 * lengths, no unknown fields), the platform client decides the rest (https or a loopback host,
 * the proving heartbeat) and its refusal is relayed. The device token goes in and never comes
 * back out: answers carry the status view only, and a refusal message is scrubbed of it.
 * Without a platform client (nothing wired by main/), GET says so and the rest answer 503.
 */
import type { Context } from 'koa';
import { AppError, badRequest } from '../../errors.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { platformView, type PlatformEnrolInput, type PlatformPort, type PortOutcome } from '../platform-port.ts';

export interface PlatformRouteDeps {
  port: PlatformPort | undefined;
}

/** Edge limits: generous beside the client's own (id ≤128, token ≤512), tight enough for a form. */
const FIELDS = { platformUrl: 2048, deviceId: 128, token: 512 } as const;

function noStore(ctx: Context, body: unknown): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

function required(port: PlatformPort | undefined): PlatformPort {
  if (!port) throw new AppError('NOT_CONFIGURED', 'no platform client is wired into this cockpit');
  return port;
}

/** A JSON object with exactly the named string fields, each 1..max characters. */
function stringFields<K extends string>(body: unknown, limits: Record<K, number>): Record<K, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('the body must be a JSON object');
  const extra = Object.keys(body).filter((key) => !(key in limits));
  if (extra.length > 0) throw badRequest(`unknown field ${extra[0]}`);
  const out = {} as Record<K, string>;
  for (const [key, max] of Object.entries(limits) as [K, number][]) {
    const value = (body as Record<string, unknown>)[key];
    if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${key} must be a non-empty string`);
    if (value.length > max) throw badRequest(`${key} must be at most ${max} characters`);
    out[key] = value;
  }
  return out;
}

/** A refusal of the client as an AppError; the token is cut out of any message that repeats it. */
function refusal(outcome: Extract<PortOutcome<unknown>, { ok: false }>, token?: string): AppError {
  const { kind } = outcome.failure;
  const message = token ? outcome.failure.message.split(token).join('[token]') : outcome.failure.message;
  // A refused token is bad input from the form (400), not the dashboard's own credential (401).
  if (kind === 'bad_request' || kind === 'unauthorized') return badRequest(message);
  return new AppError('NOT_CONFIGURED', message);
}

/** The environment decides the identity while ROBOT_PLATFORM_* are set (ARCHITECTURE §4). */
function refuseWhileEnv(port: PlatformPort): void {
  if (port.status().identitySource === 'env')
    throw new AppError('CONFLICT', 'ROBOT_PLATFORM_URL / ROBOT_DEVICE_ID / ROBOT_DEVICE_TOKEN decide the identity');
}

function identityRoutes({ port }: PlatformRouteDeps): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/console/platform',
      access: 'key',
      summary:
        'platform status: {available, enrolled, online, platformUrl, deviceId, lastError, firmware…}; never the token',
      handler: (ctx) => noStore(ctx, port ? platformView(port.status()) : { enrolled: false, available: false }),
    },
    {
      method: 'POST',
      path: '/api/console/platform/enrol',
      access: 'key',
      control: true,
      summary: 'enrol with {platformUrl (https, or http on loopback), deviceId, token}; proved by a heartbeat',
      async handler(ctx) {
        const client = required(port);
        const input: PlatformEnrolInput = stringFields(await readJsonBody(ctx), FIELDS);
        refuseWhileEnv(client);
        const out = await client.enrol(input);
        if (!out.ok) throw refusal(out, input.token);
        noStore(ctx, platformView(out.value));
      },
    },
    {
      method: 'DELETE',
      path: '/api/console/platform',
      access: 'key',
      control: true,
      summary: 'forget the platform identity (stops the loops, deletes the stored token)',
      async handler(ctx) {
        const client = required(port);
        refuseWhileEnv(client);
        await client.forget();
        noStore(ctx, platformView(client.status()));
      },
    },
  ];
}

function loopRoutes({ port }: PlatformRouteDeps): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/api/console/platform/connect',
      access: 'key',
      control: true,
      summary: 'resume heartbeat, relay and firmware loops after a disconnect; 409 when not enrolled',
      handler(ctx) {
        const client = required(port);
        if (!client.status().enrolled) throw new AppError('CONFLICT', 'not enrolled on the platform: enrol first');
        client.connect();
        noStore(ctx, platformView(client.status()));
      },
    },
    {
      method: 'POST',
      path: '/api/console/platform/disconnect',
      access: 'key',
      control: true,
      summary: 'stop talking to the platform, keep the identity; local control is unaffected',
      handler(ctx) {
        const client = required(port);
        // The loops stop at once (connected: false); envelopes already claimed are still answered
        // (delivery is at most once, reference-notes §2.4), which may take a fleet turn's 90 s.
        void client.disconnect().catch(() => undefined);
        noStore(ctx, platformView(client.status()));
      },
    },
    {
      method: 'PUT',
      path: '/api/console/platform/firmware',
      access: 'key',
      control: true,
      summary: 'firmware channel: {channel} 1-32 of a-z, 0-9, _ and -',
      async handler(ctx) {
        const client = required(port);
        const { channel } = stringFields(await readJsonBody(ctx), { channel: 32 });
        const out = client.setFirmwareChannel(channel);
        if (!out.ok) throw refusal(out);
        noStore(ctx, platformView(client.status()));
      },
    },
  ];
}

export function platformRoutes(deps: PlatformRouteDeps): RouteSpec[] {
  return [...identityRoutes(deps), ...loopRoutes(deps)];
}
