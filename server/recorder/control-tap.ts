/**
 * Control requests on the black box's `/control` channel: every request to a control route and
 * every joystick frame, with the caller's credential kind (never the credential) and the outcome.
 * A request the access gate refuses before its handler (no or a wrong credential, the rate limit,
 * a foreign origin, a malformed session cookie) is recorded too, as `refused` with the gate's code
 * and status and `stage: "gate"`; the handler's own refusals carry `stage: "handler"`.
 */
import type { Context } from 'koa';
import type { CredentialKind } from '../contract/ws.ts';
import { isAppError } from '../errors.ts';
import type { RouteSpec } from '../http/route-table.ts';

/** Fields of a request body that name credentials; never recorded even when a route reads them. */
const SECRET_FIELD = /token|secret|password|authorization|cookie|key|passkey/i;

export function withoutSecretFields(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => withoutSecretFields(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !SECRET_FIELD.test(k))
      .map(([k, v]) => [k, withoutSecretFields(v, depth + 1)]),
  );
}

export type JoystickDoor = (
  frame: unknown,
  caller: { kind: CredentialKind | 'anonymous' },
) => { accepted: boolean; code?: string };

/** What the gate had found out about the caller when it refused (server/http/caller.ts). */
interface CallerSeen {
  kind: CredentialKind | 'anonymous';
  failed: boolean;
}

export interface ControlTap {
  wrapControlRoutes(routes: RouteSpec[]): RouteSpec[];
  /** The access gate refused a request to `route` before its handler ran. */
  refusedAtGate(route: Pick<RouteSpec, 'method' | 'path'>, ctx: Context, error: unknown): void;
  watchJoystick<T extends { streamTarget: JoystickDoor }>(control: T): T;
  /** A joystick frame the socket refused before Control saw it (no key on the socket). */
  refusedJoystick(credential: CredentialKind | 'anonymous', code: string): void;
}

const outcomeOf = (error: unknown) => ({
  outcome: 'refused' as const,
  code: isAppError(error) ? error.code : 'INTERNAL',
  status: isAppError(error) ? error.status : 500,
});

export function createControlTap(record: (entry: Record<string, unknown>) => void): ControlTap {
  /** The routes whose requests are recorded: those handed to wrapControlRoutes. */
  const recorded = new Set<string>();
  const actionOf = (path: string) => path.split('/').pop() ?? path;
  return {
    wrapControlRoutes(routes) {
      return routes.map((route) => {
        const handler = route.handler;
        if (!handler) return route;
        recorded.add(`${route.method} ${route.path}`);
        const base = { action: actionOf(route.path), path: route.path };
        return {
          ...route,
          async handler(ctx: Context) {
            const caller = (ctx.state as { caller?: CallerSeen }).caller;
            const who = { ...base, credential: caller?.kind ?? 'anonymous' };
            try {
              await handler(ctx);
              const input = withoutSecretFields((ctx.state as { jsonBody?: unknown }).jsonBody);
              record({ ...who, outcome: 'ok', status: ctx.status, ...(input ? { input } : {}) });
            } catch (error) {
              record({ ...who, ...outcomeOf(error), stage: 'handler' });
              throw error;
            }
          },
        };
      });
    },
    refusedAtGate(route, ctx, error) {
      if (!recorded.has(`${route.method} ${route.path}`)) return;
      const caller = (ctx.state as { caller?: CallerSeen }).caller;
      record({
        action: actionOf(route.path),
        path: route.path,
        // The kind of credential presented: a wrong one is `invalid`, none at all `anonymous`.
        credential: caller?.failed ? 'invalid' : (caller?.kind ?? 'anonymous'),
        ...outcomeOf(error),
        stage: 'gate',
      });
    },
    refusedJoystick(credential, code) {
      record({ action: 'joystick', path: '/ws', credential, outcome: 'refused', code, stage: 'gate' });
    },
    watchJoystick(control) {
      const streamTarget: JoystickDoor = (frame, caller) => {
        const result = control.streamTarget(frame, caller);
        const input = withoutSecretFields(frame);
        record({
          action: 'joystick',
          path: '/ws',
          credential: caller.kind,
          outcome: result.accepted ? 'ok' : 'refused',
          ...(result.code ? { code: result.code } : {}),
          ...(input ? { input } : {}),
        });
        return result;
      };
      return { ...control, streamTarget };
    },
  };
}
