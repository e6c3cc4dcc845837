/**
 * One route table with access levels: every route declares who may call it, and a
 * route without a declaration cannot be registered. The access matrix test walks this table.
 */
import type { Context } from 'koa';

/**
 * public: no credential. key: owner token or passkey session; loopback callers may also read
 * (GET) while ROBOT_LOOPBACK_READS=1. key+loopback: key, or any loopback caller.
 */
export type Access = 'public' | 'key' | 'key+loopback';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'WS';

export interface RouteSpec {
  method: Method;
  /** Koa router path (path-to-regexp v8 syntax). */
  path: string;
  access: Access;
  /** /api/control/*: rate limit then same-origin check (docs/contract.md, "Control routes"). */
  control?: boolean;
  /**
   * The emergency stop: never rate limited, because the one action that must always work cannot
   * be refused for the looks sent before it. It still needs a key and passes the Origin check.
   */
  safetyStop?: true;
  /** `?token=` may stand in for the Authorization header (image, stream and socket URLs). */
  queryToken?: boolean;
  /** Body limit in bytes when a route needs more than the default 64 KB. */
  bodyLimit?: number;
  /** Absent for WS routes, which the WebSocket hub serves. */
  handler?: (ctx: Context) => Promise<void> | void;
  /** One line for the README's route table. */
  summary: string;
}

/** The API's paths (`/api` and below): never the dashboard, and a miss is a JSON 404. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

export function defineRoutes(routes: RouteSpec[]): readonly RouteSpec[] {
  const seen = new Set<string>();
  for (const route of routes) {
    const accessValid = route.access === 'public' || route.access === 'key' || route.access === 'key+loopback';
    if (!accessValid) throw new Error(`route ${route.method} ${route.path} declares no access level`);
    if (route.method !== 'WS' && !route.handler) throw new Error(`route ${route.method} ${route.path} has no handler`);
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`route ${key} declared twice`);
    seen.add(key);
  }
  return Object.freeze([...routes]);
}
