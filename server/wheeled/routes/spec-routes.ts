/**
 * The wheeled server's route table: 38 routes, 15 of them public (docs/contract.md, "How the wheeled server behaves": health, the
 * passkey ceremony, page shells, trust pages). The spec shows only part of the table; this is
 * the whole of it, in one place, so the access-matrix test and README-wheeled.md follow it.
 * Every route here is implemented by a feature module; completeWheeledRoutes refuses a missing
 * route, an extra one, or an implementation whose access differs from the declaration.
 */
import type { Access, Method, RouteSpec } from '../../http/route-table.ts';

type Flags = { control?: true; queryToken?: true };
type Declared = readonly [Method, string, Access, Flags?];

const CONTROL: Flags = { control: true };
const QUERY_TOKEN: Flags = { queryToken: true };

export const SERVER_B_ROUTES: readonly Declared[] = [
  // Public (15): health, the passkey ceremony (8), trust pages (4), page shells (2).
  ['GET', '/api/health', 'public'],
  ['GET', '/api/auth/status', 'public'],
  ['POST', '/api/auth/register/begin', 'public'],
  ['POST', '/api/auth/register/complete', 'public'],
  ['POST', '/api/auth/login/begin', 'public'],
  ['POST', '/api/auth/login/complete', 'public'],
  ['POST', '/api/auth/logout', 'public'],
  ['GET', '/api/auth/credentials', 'public'],
  ['DELETE', '/api/auth/credentials/:cid', 'public'],
  // Session and base.
  ['POST', '/api/auth/refresh', 'key'],
  ['GET', '/api/state', 'key'],
  ['POST', '/api/control', 'key', CONTROL],
  ['POST', '/api/control/stop', 'key', CONTROL],
  ['GET', '/api/drive/settings', 'key'],
  ['PUT', '/api/drive/settings', 'key', CONTROL],
  ['POST', '/api/drive/gate', 'key', CONTROL],
  ['POST', '/api/drive/reset', 'key', CONTROL],
  // Camera of the base (the desktop server's camera routes over B's frame hub).
  ['GET', '/api/snapshot.jpg', 'key', QUERY_TOKEN],
  ['GET', '/api/camera/snapshot', 'key', QUERY_TOKEN],
  ['GET', '/api/stream', 'key', QUERY_TOKEN],
  // Agent, model and voice settings.
  ['POST', '/api/chat', 'key'],
  ['GET', '/api/console/agent/settings', 'key'],
  ['PUT', '/api/console/agent/settings', 'key', CONTROL],
  ['POST', '/api/console/agent/test', 'key', CONTROL],
  ['GET', '/api/console/voice', 'key'],
  ['PUT', '/api/console/voice', 'key', CONTROL],
  // Service tokens.
  ['GET', '/api/console/tokens', 'key'],
  ['POST', '/api/console/tokens', 'key', CONTROL],
  ['DELETE', '/api/console/tokens/:id', 'key', CONTROL],
  // Sockets: browsers cannot set headers on a handshake, so ?token= carries the JWT.
  ['WS', '/ws/chat', 'key', QUERY_TOKEN],
  ['WS', '/ws/voice', 'key', QUERY_TOKEN],
  ['WS', '/ws/state', 'key', QUERY_TOKEN],
  ['GET', '/ca', 'public'],
  ['GET', '/ca.crt', 'public'],
  ['GET', '/trust', 'public'],
  ['GET', '/field-card', 'public'],
  // The router runs matching routes in order: the shell's catch-all must come last.
  ['GET', '/', 'public'],
  ['GET', '/{*path}', 'public'],
];

const keyOf = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** The implementations in the table's order; throws when they and the table disagree. */
export function completeWheeledRoutes(implemented: readonly RouteSpec[]): RouteSpec[] {
  const byKey = new Map(implemented.map((r) => [keyOf(r), r]));
  const problems: string[] = [];
  const table = SERVER_B_ROUTES.flatMap(([method, path, access, flags = {}]) => {
    const route = byKey.get(keyOf({ method, path }));
    byKey.delete(keyOf({ method, path }));
    if (!route) {
      problems.push(`${method} ${path} is declared but not implemented`);
      return [];
    }
    const same =
      route.access === access &&
      Boolean(route.control) === Boolean(flags.control) &&
      Boolean(route.queryToken) === Boolean(flags.queryToken);
    if (!same)
      problems.push(
        `${method} ${path} must be ${access}${flags.control ? ', control' : ''}${flags.queryToken ? ', ?token=' : ''}`,
      );
    return [route];
  });
  for (const extra of byKey.keys()) problems.push(`${extra} is not in the wheeled server's table`);
  if (problems.length > 0) throw new Error(`wheeled routes:\n  ${problems.join('\n  ')}`);
  return table;
}
