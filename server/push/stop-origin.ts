/**
 * Who pressed the latched stop, down to the passkey. The stop's receipt on the event log names
 * only the kind of credential (passkey, token...), and two phones with two passkeys are both
 * "passkey"; the push must skip only the one that pressed it. So the stop route runs inside an
 * AsyncLocalStorage scope holding the caller's credential, and the receipt, emitted later in that
 * same async flow (after the daemon calls), is read inside it. A stop from elsewhere (the tray,
 * the robot itself) has no scope and falls back to the receipt's kind.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { callerOf } from '../http/access-gate.ts';
import type { RouteSpec } from '../http/route-table.ts';
import { subscriberOf } from './credential.ts';

export const STOP_ROUTE = { method: 'POST', path: '/api/control/stop' } as const;

export interface StopOrigin {
  /** The routes as given, the stop route's handler wrapped in the scope. */
  wrap(routes: RouteSpec[]): RouteSpec[];
  /** The credential of the stop request whose async flow is running now, if any. */
  current(): string | undefined;
}

export function createStopOrigin(): StopOrigin {
  const scope = new AsyncLocalStorage<string>();
  return {
    wrap: (routes) =>
      routes.map((route) => {
        const handler = route.handler;
        if (route.method !== STOP_ROUTE.method || route.path !== STOP_ROUTE.path || !handler) return route;
        return { ...route, handler: (ctx) => scope.run(subscriberOf(callerOf(ctx)), () => handler(ctx)) };
      }),
    current: () => scope.getStore(),
  };
}
