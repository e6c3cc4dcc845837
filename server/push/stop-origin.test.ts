/**
 * The stop route's credential is readable from code that runs later in the same request, and
 * only there; other routes are left alone.
 */
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import type { RouteSpec } from '../http/route-table.ts';
import { createStopOrigin } from './stop-origin.ts';

const ctxFor = (caller: object) => ({ state: { caller } }) as unknown as Context;

describe('stop origin', () => {
  it('holds the caller of the stop route through its awaits, and nowhere else', async () => {
    const origin = createStopOrigin();
    const seen: (string | undefined)[] = [];
    const routes: RouteSpec[] = [
      {
        method: 'POST',
        path: '/api/control/stop',
        access: 'key',
        summary: 'stop',
        async handler() {
          await new Promise((r) => setTimeout(r, 5));
          seen.push(origin.current());
        },
      },
      {
        method: 'POST',
        path: '/api/control/look',
        access: 'key',
        summary: 'look',
        handler: () => void seen.push(origin.current()),
      },
    ];
    const [stop, look] = origin.wrap(routes);
    await Promise.all([
      stop?.handler?.(ctxFor({ kind: 'passkey', credentialId: 'phone-1' })),
      stop?.handler?.(ctxFor({ kind: 'token' })),
    ]);
    await look?.handler?.(ctxFor({ kind: 'passkey', credentialId: 'phone-1' }));
    expect(seen).toEqual(['phone-1', 'token', undefined]);
    expect(origin.current()).toBeUndefined();
    expect(look).toBe(routes[1]);
  });
});
