import { eventually } from '../../server/testing/eventually.ts';

/**
 * Calls to the cockpit from the test itself (Node fetch): as a script would, with the owner
 * bearer, or with a browser context's session cookie to see what the cockpit makes of it.
 */
export async function api(
  base: string,
  path: string,
  init: { method?: string; token?: string; cookie?: string; body?: unknown; origin?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.cookie) headers.cookie = `cockpit_session=${init.cookie}`;
  if (init.origin) headers.origin = init.origin;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, body };
}

/** The head yaw in the cockpit's state now, degrees. */
export async function stateYaw(base: string, token: string): Promise<number> {
  const { status, body } = await api(base, '/api/state', { token });
  if (status !== 200) throw new Error(`GET /api/state answered ${status}`);
  return (body.head as { yaw: number }).yaw;
}

/**
 * The head yaw once the head is at rest: three reads in a row, each a poll apart, agree. A head
 * being driven moves tens of degrees a second, so it cannot pass for one at rest; a busy machine
 * only makes this wait longer.
 */
export async function restingYaw(base: string, token: string): Promise<number> {
  const reads: number[] = [];
  const rest = await eventually(
    async () => {
      reads.push(await stateYaw(base, token));
      const last = reads.slice(-3);
      return last.length === 3 && Math.max(...last) - Math.min(...last) < 0.05 ? { yaw: last[2] as number } : undefined;
    },
    { what: 'the head at rest', intervalMs: 100 },
  );
  return rest.yaw;
}
