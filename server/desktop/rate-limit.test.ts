import { afterAll, beforeAll, expect, it } from 'vitest';
import { remoteRequest, startHarness, TEST_TOKEN, type Harness } from '../testing/cockpit-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const control = (localAddress: string) =>
  remoteRequest(`${h.url}/api/control/antennas`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ right: 10, left: -10 }),
    localAddress,
  });

it('limits one client to ROBOT_RATE_LIMIT control requests per second, leaving others unaffected', async () => {
  const burst = await Promise.all(Array.from({ length: 10 }, () => control('127.0.0.21')));
  const limited = burst.filter((r) => r.status === 429);
  expect(limited.length).toBeGreaterThanOrEqual(4);
  expect(JSON.parse(limited[0]!.body)).toMatchObject({ code: 'RATE_LIMITED' });
  expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  const other = await control('127.0.0.22');
  expect(other.status).not.toBe(429);
});
