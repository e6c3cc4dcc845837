/**
 * The sender against the fake push service: every subscription but the excepted credential gets
 * the notice, gone ones are deleted, a failing service is counted and logged by origin and status
 * only: the endpoint path (the capability to reach that browser) never reaches the log.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, recordingLog } from '../store/testing/temp-dir.ts';
import { createPushSender } from './push-sender.ts';
import { parseSubscription } from './subscription-input.ts';
import { createSubscriptionStore } from './subscriptions.ts';
import { startFakePushService, type FakePushService } from './testing/fake-push-service.ts';
import { loadVapidKeys } from './vapid-keys.ts';

let service: FakePushService;
let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  service = await startFakePushService();
  temp = await makeTempDir('push-sender-');
});
afterAll(async () => {
  await service.close();
  await temp.cleanup();
});

it('sends to all but the excepted credential, prunes the gone, logs failures without the endpoint', async () => {
  const { log, records } = recordingLog();
  const keys = await loadVapidKeys({ dataDir: temp.dir, log });
  const store = createSubscriptionStore({ dataDir: temp.dir, log });
  await store.load(keys.publicKey);
  const browsers = ['token', 'phone', 'tablet', 'laptop'].map((credential) => ({ credential, ...service.subscribe() }));
  for (const b of browsers) await store.add(b.credential, parseSubscription(b.subscription));
  const [owner, phone, tablet, laptop] = browsers.map((b) => b.subscription.endpoint) as [
    string,
    string,
    string,
    string,
  ];
  service.answer(tablet, 410);
  service.answer(laptop, 503);

  const sender = createPushSender({
    subscriptions: store,
    vapid: () => ({ keys, subject: 'mailto:a@b.example' }),
    log,
    agent: service.agent,
  });
  const payload = { title: 'STOP engaged', body: 'A signed-in phone pressed it.', url: '/', tag: 'stop' };
  expect(await sender.send(payload, { except: 'phone', urgent: true })).toEqual({ sent: 1, pruned: 1, failed: 1 });

  expect(service.received.map((p) => [p.endpoint, p.payload, p.urgency, p.topic])).toEqual([
    [owner, payload, 'high', 'stop'],
  ]);
  expect(store.list().map((s) => s.endpoint)).toEqual([owner, phone, laptop]);
  const warning = records.find((r) => r.msg === 'push not delivered');
  expect(warning).toMatchObject({ level: 'warn', service: service.origin, status: 503 });
  expect(JSON.stringify(records)).not.toContain(new URL(laptop).pathname);
  expect(service.refused).toEqual([]);
});
