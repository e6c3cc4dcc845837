/**
 * The desktop server has exactly the 39 routes of docs/contract.md, 11 of them public, each
 * declared here with its access level (so the access matrix covers them). Every one is
 * implemented by a feature module: completeDesktopRoutes refuses a build that lacks one, as
 * the wheeled server's table does (server/wheeled/routes/spec-routes.ts), rather than answering for it.
 */
import type { Access, Method, RouteSpec } from '../../http/route-table.ts';

type Declared = [Method, string, Access, string, { control?: boolean; queryToken?: boolean }?];

/** Every route of the desktop server with its access, in the spec's order. */
export const SERVER_A_ROUTES: readonly Declared[] = [
  ['GET', '/api/health', 'public', 'health object'],
  ['GET', '/api/state', 'key', 'robot state'],
  ['GET', '/api/telemetry', 'key', 'state plus camera status'],
  ['GET', '/api/emotions', 'key', 'recorded-move library'],
  ['GET', '/api/log', 'key', 'agent log tail; n (≤300), after'],
  ['GET', '/api/ask/last', 'key', 'Ask status'],
  ['GET', '/api/snapshot.jpg', 'key', 'latest camera frame (JPEG)', { queryToken: true }],
  ['GET', '/api/camera/snapshot', 'key', 'alias of /api/snapshot.jpg', { queryToken: true }],
  ['GET', '/api/stream', 'key', 'MJPEG stream', { queryToken: true }],
  ...[
    'antennas',
    'ask',
    'demo',
    'express',
    'home',
    'look',
    'motors',
    'reel',
    'say',
    'sleep',
    'stop',
    'volume',
    'wake',
  ].map((name): Declared => ['POST', `/api/control/${name}`, 'key', `control: ${name}`, { control: true }]),
  ['POST', '/api/chat', 'key', 'one fleet agent turn (waits up to 75 s)'],
  ['GET', '/api/tracking', 'key', 'face tracking status'],
  // docs/contract.md, "Loopback rule": loopback callers may write /api/tracking* and /api/doa.
  ['POST', '/api/tracking', 'key+loopback', 'face tracker on or off; {enabled}'],
  ['POST', '/api/tracking/hold', 'key+loopback', 'named hold; {name, on, ttl}'],
  ['GET', '/api/doa', 'key', 'turn-toward-speaker status'],
  ['POST', '/api/doa', 'key+loopback', 'turn-toward-speaker on or off; {enabled}'],
  ['GET', '/api/auth/status', 'public', 'who the caller is'],
  ['POST', '/api/auth/register/begin', 'public', 'passkey registration options'],
  ['POST', '/api/auth/register/complete', 'public', 'store the new passkey'],
  ['POST', '/api/auth/login/begin', 'public', 'passkey assertion options'],
  ['POST', '/api/auth/login/complete', 'public', 'verify and set the session cookie'],
  ['POST', '/api/auth/logout', 'public', 'end the session'],
  ['GET', '/api/auth/credentials', 'public', 'list passkeys (owner only)'],
  ['DELETE', '/api/auth/credentials/:cid', 'public', 'remove a passkey (owner only)'],
  ['WS', '/ws', 'key', 'state, agent_log and event frames', { queryToken: true }],
  ['GET', '/', 'public', 'dashboard shell'],
  ['GET', '/{*path}', 'public', 'static assets, single-page fallback'],
];

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/**
 * The spec's table with every route implemented, in the spec's order, plus console extras
 * (/api/console/*). Throws, naming each problem, when a spec route is missing, when an
 * implementation's access or flags differ from its declaration, or when an extra route is not a keyed
 * console route. Socket routes are served by the hub: their declaration is the route.
 */
export function completeDesktopRoutes(implemented: readonly RouteSpec[]): RouteSpec[] {
  const byKey = new Map(implemented.map((r) => [key(r), r]));
  const problems: string[] = [];
  const table = SERVER_A_ROUTES.flatMap(([method, path, access, summary, extra]): RouteSpec[] => {
    const real = byKey.get(key({ method, path }));
    byKey.delete(key({ method, path }));
    if (!real) {
      if (method === 'WS') return [{ method, path, access, summary, ...extra }];
      problems.push(`${method} ${path} is in the spec but not implemented`);
      return [];
    }
    const same =
      real.access === access &&
      Boolean(real.control) === Boolean(extra?.control) &&
      Boolean(real.queryToken) === Boolean(extra?.queryToken);
    if (!same)
      problems.push(
        `${method} ${path} must be ${access}${extra?.control ? ', control' : ''}${extra?.queryToken ? ', ?token=' : ''}`,
      );
    return [real];
  });
  for (const extra of byKey.values()) {
    if (!extra.path.startsWith('/api/console/'))
      problems.push(`${key(extra)} is not in the spec; console routes live under /api/console/`);
    else if (extra.access === 'public') problems.push(`${key(extra)}: console routes require a key`);
    else table.push(extra);
  }
  if (problems.length > 0) throw new Error(`desktop routes:\n  ${problems.join('\n  ')}`);
  // The router runs matching routes in order: the shell's catch-all must come last.
  const isShell = (r: RouteSpec) => r.path === '/' || r.path === '/{*path}';
  return [...table.filter((r) => !isShell(r)), ...table.filter(isShell)];
}
