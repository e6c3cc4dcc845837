/**
 * The daemon's state stream follows the dashboards: the rest rate while none is open, the full
 * rate while one is (server/daemon/state-feed.ts, setWatched; docs/daemon.md, "State stream rate").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../testing/eventually.ts';
import { startHarness, TEST_TOKEN, type Harness } from '../testing/cockpit-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function streamRates(): Promise<string> {
  const status = (await (await h.sim('/sim/status')).json()) as { counters: { stateStreamRates: number[] } };
  return status.counters.stateStreamRates.join();
}

function openDashboard(): Promise<WebSocket> {
  const ws = new WebSocket(`${h.url.replace(/^http/, 'ws')}/ws`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
  return new Promise((resolve, reject) => {
    // Its first frame is the state from the cache: the dashboard does not wait for the new stream.
    ws.once('message', () => resolve(ws));
    ws.once('error', reject);
  });
}

it('streams at 5 Hz with no dashboard, 30 Hz while one or more is open, and 5 again after the last', async () => {
  const feed = h.cockpit.robot.feed;
  const dashboards = () => h.cockpit.app.hub.clients('/ws').size;
  await eventually(async () => (await streamRates()) === '5', { what: 'the rest-rate stream' });
  const first = await openDashboard();
  const second = await openDashboard();
  await eventually(async () => (await streamRates()) === '30', { what: 'the full-rate stream alone' });
  first.close();
  // The rate is decided as the hub counts the close: once it counts one dashboard, the feed asks
  // for the full rate still.
  await eventually(() => dashboards() === 1, { what: 'the first dashboard gone' });
  expect(feed.snapshot().requestedHz).toBe(30);
  second.close();
  await eventually(() => dashboards() === 0, { what: 'the second dashboard gone' });
  expect(feed.snapshot().requestedHz).toBe(5);
  await eventually(async () => (await streamRates()) === '5', { what: 'the rest-rate stream again' });
  expect(feed.snapshot()).toMatchObject({ presence: 'connected', lastError: null });
});
