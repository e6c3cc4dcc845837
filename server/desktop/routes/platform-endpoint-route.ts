/**
 * POST /api/console/platform/enrol-endpoint: the owner makes this robot an endpoint device of
 * their platform account (docs/platform.md, "Endpoint devices": `{name, kind: endpoint, url, secret}`), so
 * the platform dials in: `use_device` reaches the robot's /api/chat, /api/telemetry and
 * /api/camera/snapshot at `url` with `secret` as bearer.
 *
 * The secret is not typed by anyone: it must be a credential those key routes accept, and the
 * only bearer this cockpit's access model knows is its owner token (README "Authentication"),
 * so the cockpit sends that itself and it never reaches the page. The pull-device identity is
 * untouched: this is a second, independent way for the platform to reach the robot.
 */
import { AppError, badRequest } from '../../errors.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { PlatformEndpointEnrolBody, PlatformEndpointEnrolled } from '../../contract/platform-enrol.ts';
import type { PlatformPort } from '../platform-port.ts';

/** Edge limits: the client checks the rest (https on a public host name, the platform's own rules). */
const LIMITS = { platformUrl: 2048, sessionToken: 512, name: 64, url: 2048 } as const;
type Field = keyof typeof LIMITS;

function endpointInput(body: unknown): PlatformEndpointEnrolBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('the body must be a JSON object');
  const record = body as Record<string, unknown>;
  // The secret is the cockpit's to choose (above): a page that sends one is refused, not ignored.
  const extra = Object.keys(record).find((key) => !Object.hasOwn(LIMITS, key));
  if (extra !== undefined) throw badRequest(`unknown field ${extra}`);
  const out = {} as Record<Field, string>;
  for (const [key, max] of Object.entries(LIMITS) as [Field, number][]) {
    const value = record[key];
    if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${key} must be a non-empty string`);
    if (value.length > max) throw badRequest(`${key} must be at most ${max} characters`);
    out[key] = value.trim();
  }
  return out;
}

/** The platform keeps only the origin of the URL it dials (docs/platform.md, "Endpoint devices"). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export interface EndpointRouteDeps {
  port: PlatformPort | undefined;
  /** The bearer the platform will present: this cockpit's owner token. */
  secret: string | undefined;
  /** The refusal mapping the other platform routes use (the session token scrubbed out). */
  refusal: (failure: { kind: string; message: string }, token: string) => AppError;
}

export function platformEndpointRoute({ port, secret, refusal }: EndpointRouteDeps): RouteSpec {
  return {
    method: 'POST',
    path: '/api/console/platform/enrol-endpoint',
    access: 'key',
    control: true,
    summary:
      'make this robot an endpoint device the platform dials: {platformUrl, sessionToken, name, url (https, public host)}; the owner token is the bearer',
    async handler(ctx) {
      if (!port || secret === undefined)
        throw new AppError('NOT_CONFIGURED', 'no platform client is wired into this cockpit');
      const input = endpointInput(await readJsonBody(ctx));
      const out = await port.enrolEndpoint({ ...input, secret });
      if (!out.ok) {
        // Neither token may come back in a refusal that happens to repeat it.
        const failure = { ...out.failure, message: out.failure.message.split(secret).join('[owner token]') };
        throw refusal(failure, input.sessionToken);
      }
      ctx.set('Cache-Control', 'no-store');
      const endpoint: PlatformEndpointEnrolled = {
        platformUrl: out.value.platformUrl,
        deviceId: out.value.deviceId,
        url: originOf(input.url),
      };
      ctx.body = { endpoint };
    },
  };
}
