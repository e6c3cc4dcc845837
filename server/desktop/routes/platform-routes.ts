/**
 * The platform card's console routes: status, enrolment with pasted values or with
 * the owner's session token, connect, disconnect, forget, the firmware channel and install
 * consent, and the owner session that use_device needs. Thin: the body is checked at the edge (types,
 * lengths, no unknown fields), the platform client decides the rest (https or a loopback host,
 * the proving heartbeat) and its refusal is relayed. Endpoint enrolment has its own file. The device token goes in and never comes
 * back out: answers carry the status view only, and a refusal message is scrubbed of it.
 * Without a platform client (nothing wired by main/), GET says so and the rest answer 503.
 */
import { AppError, badRequest } from '../../errors.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { replyNoStore } from '../../http/no-store.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { platformEndpointRoute } from './platform-endpoint-route.ts';
import type {
  PlatformEnrolInput,
  PlatformSessionEnrolInput,
  PlatformUnavailable,
} from '../../contract/platform-enrol.ts';
import { platformView, type PlatformPort, type PortOutcome } from '../platform-port.ts';

export interface PlatformRouteDeps {
  port: PlatformPort | undefined;
  /** The bearer the platform presents when it dials this robot as an endpoint device (the owner token). */
  endpointSecret?: string;
}

/** Edge limits: generous beside the client's own (id ≤128, token ≤512), tight enough for a form. */
const FIELDS = { platformUrl: 2048, deviceId: 128, token: 512 } as const;
const SESSION_FIELDS = { platformUrl: 2048, sessionToken: 512, name: 64 } as const;

function required(port: PlatformPort | undefined): PlatformPort {
  if (!port) throw new AppError('NOT_CONFIGURED', 'no platform client is wired into this cockpit');
  return port;
}

function objectBody(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('the body must be a JSON object');
  const extra = Object.keys(body).filter((key) => !allowed.includes(key));
  if (extra.length > 0) throw badRequest(`unknown field ${extra[0]}`);
  return body as Record<string, unknown>;
}

/** A JSON object with exactly the named string fields, each 1..max characters (plus `optional` others). */
function stringFields<K extends string>(
  body: unknown,
  limits: Record<K, number>,
  optional: readonly string[] = [],
): Record<K, string> {
  objectBody(body, [...Object.keys(limits), ...optional]);
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
  if (kind === 'storage') return new AppError('STORAGE_FAILED', message);
  if (kind === 'conflict') return new AppError('CONFLICT', message);
  // Anything else is the platform not answering (unavailable, timeout, transport): not a setup problem.
  return new AppError('PLATFORM_UNREACHABLE', message);
}

/** Body of PUT /api/console/platform/firmware: a channel, the install consent, or both. */
function firmwareChoices(body: unknown): { channel?: string; installAllowed?: boolean } {
  const { channel, installAllowed } = objectBody(body, ['channel', 'installAllowed']);
  if (channel === undefined && installAllowed === undefined)
    throw badRequest('send channel (1-32 of a-z, 0-9, _ and -) and/or installAllowed (boolean)');
  if (channel !== undefined && (typeof channel !== 'string' || channel.length > 32))
    throw badRequest('channel must be a string of 1-32 of a-z, 0-9, _ and -');
  if (installAllowed !== undefined && typeof installAllowed !== 'boolean')
    throw badRequest('installAllowed must be true or false');
  return { ...(channel !== undefined ? { channel } : {}), ...(installAllowed !== undefined ? { installAllowed } : {}) };
}

/** Body of POST /api/console/platform/enrol-session. */
function sessionEnrolment(body: unknown): PlatformSessionEnrolInput {
  const fields = stringFields(body, SESSION_FIELDS, ['keepSession']);
  const keep = (body as Record<string, unknown>).keepSession;
  if (keep !== undefined && typeof keep !== 'boolean') throw badRequest('keepSession must be true or false');
  return { ...fields, keepSession: keep === true };
}

/** The environment decides the identity while ROBOT_PLATFORM_* are set (docs/architecture.md, "Configuration and persistence"). */
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
      handler(ctx) {
        const none: PlatformUnavailable = { enrolled: false, available: false };
        replyNoStore(ctx, port ? platformView(port.status()) : none);
      },
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
        replyNoStore(ctx, platformView(out.value));
      },
    },
    {
      method: 'POST',
      path: '/api/console/platform/enrol-session',
      access: 'key',
      control: true,
      summary:
        'create this robot as a device with the owner\'s {platformUrl, sessionToken, name, keepSession?}, then enrol it',
      async handler(ctx) {
        const client = required(port);
        const input = sessionEnrolment(await readJsonBody(ctx));
        refuseWhileEnv(client);
        const out = await client.enrolWithSession(input);
        if (!out.ok) throw refusal(out, input.sessionToken);
        replyNoStore(ctx, platformView(out.value));
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
        replyNoStore(ctx, platformView(client.status()));
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
        replyNoStore(ctx, platformView(client.status()));
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
        // (delivery is at most once, docs/platform.md, "Devices"), which may take a fleet turn's 90 s.
        void client.disconnect().catch(() => undefined);
        replyNoStore(ctx, platformView(client.status()));
      },
    },
    {
      method: 'PUT',
      path: '/api/console/platform/firmware',
      access: 'key',
      control: true,
      summary: 'firmware choices: {channel?} 1-32 of a-z, 0-9, _ and -, {installAllowed?} install once idle',
      async handler(ctx) {
        const client = required(port);
        const { channel, installAllowed } = firmwareChoices(await readJsonBody(ctx));
        for (const out of [
          channel !== undefined ? await client.setFirmwareChannel(channel) : null,
          installAllowed !== undefined ? await client.setFirmwareInstall(installAllowed) : null,
        ])
          if (out && !out.ok) throw refusal(out);
        replyNoStore(ctx, platformView(client.status()));
      },
    },
  ];
}

function ownerSessionRoutes({ port }: PlatformRouteDeps): RouteSpec[] {
  return [
    {
      method: 'PUT',
      path: '/api/console/platform/owner-session',
      access: 'key',
      control: true,
      summary: "the owner's session token {token} for use_device, proved on the platform and stored; never shown",
      async handler(ctx) {
        const client = required(port);
        const { token } = stringFields(await readJsonBody(ctx), { token: 512 });
        const out = await client.setOwnerSession(token);
        if (!out.ok) throw refusal(out, token);
        replyNoStore(ctx, platformView(out.value));
      },
    },
    {
      method: 'DELETE',
      path: '/api/console/platform/owner-session',
      access: 'key',
      control: true,
      summary: "delete the stored owner session token (use_device stops reaching the owner's devices)",
      async handler(ctx) {
        const out = await required(port).forgetOwnerSession();
        if (!out.ok) throw refusal(out);
        replyNoStore(ctx, platformView(out.value));
      },
    },
    {
      method: 'POST',
      path: '/api/console/platform/adopt',
      access: 'key',
      control: true,
      summary:
        'after a token rotation: a new device token through the stored owner session (POST /api/devices/adopt), stored and connected',
      async handler(ctx) {
        const out = await required(port).adoptToken();
        if (!out.ok) throw refusal(out);
        replyNoStore(ctx, platformView(out.value));
      },
    },
  ];
}

export function platformRoutes(deps: PlatformRouteDeps): RouteSpec[] {
  const endpoint = platformEndpointRoute({
    port: deps.port,
    secret: deps.endpointSecret,
    refusal: (failure, token) => refusal({ ok: false, failure }, token),
  });
  return [...identityRoutes(deps), endpoint, ...loopRoutes(deps), ...ownerSessionRoutes(deps)];
}
