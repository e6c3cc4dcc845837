/**
 * The sender against the fake push service: every subscription but the excepted credential gets
 * the notice, gone ones are deleted, a failing service is counted and logged by origin and status
 * only: the endpoint path (the capability to reach that browser) never reaches the log.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../testing/manual-clock.ts';
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

describe('a push service that does not end its answer', () => {
  /** A sender over one subscription whose pushes `respond` answers, on a manual clock. */
  async function oneBrowser(respond: (res: ServerResponse) => void) {
    const { log, records } = recordingLog();
    const dir = await makeTempDir('push-sender-slow-');
    const keys = await loadVapidKeys({ dataDir: dir.dir, log });
    const store = createSubscriptionStore({ dataDir: dir.dir, log });
    await store.load(keys.publicKey);
    const browser = service.subscribe();
    await store.add('token', parseSubscription(browser.subscription));
    service.respond(browser.subscription.endpoint, respond);
    const clock = createManualClock();
    const sender = createPushSender({
      subscriptions: store,
      vapid: () => ({ keys, subject: 'mailto:a@b.example' }),
      log,
      agent: service.agent,
      timeoutMs: 10_000,
      schedule: clock.schedule,
    });
    return { sender, clock, records, cleanup: dir.cleanup };
  }

  const payload = { title: 'Robot daemon unreachable', body: 'No answer.', url: '/', tag: 'daemon' };

  it('gives up at the deadline when the answer trickles, and says so in the log', async () => {
    let answered!: () => void;
    const answering = new Promise<void>((resolve) => (answered = resolve));
    const drips: NodeJS.Timeout[] = [];
    const { sender, clock, records, cleanup } = await oneBrowser((res) => {
      // A 201 whose body never ends: a byte now and then keeps any idle timeout from firing.
      res.writeHead(201, { 'content-type': 'text/plain' });
      res.write('.');
      drips.push(setInterval(() => res.write('.'), 5));
      answered();
    });
    try {
      const sending = sender.send(payload);
      await answering;
      clock.advance(10_000);
      expect(await sending).toEqual({ sent: 0, pruned: 0, failed: 1 });
      expect(records.find((r) => r.msg === 'push not delivered')).toMatchObject({
        reason: 'The operation was aborted due to timeout',
      });
    } finally {
      for (const drip of drips) clearInterval(drip);
      await cleanup();
    }
  });

  it('reads no more than a short answer: a 201 that floods is sent, its flood left unread', async () => {
    let written = 0;
    const { sender, cleanup } = await oneBrowser((res) => {
      res.writeHead(201, { 'content-type': 'text/plain' });
      const piece = Buffer.alloc(64 * 1024, 0x2e);
      // Written only as fast as the reader takes it: a reader that reads on gets 64 MiB, then the end.
      const pump = () => {
        while (written < 64 * 1024 * 1024) {
          written += piece.length;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    try {
      expect(await sender.send(payload)).toEqual({ sent: 1, pruned: 0, failed: 0 });
      expect(written).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await cleanup();
    }
  });
});

it('answers for the notice when the disk refuses to delete the gone, and deletes them at the next', async () => {
  const { log, records } = recordingLog();
  const keys = await loadVapidKeys({ dataDir: temp.dir, log });
  const store = createSubscriptionStore({ dataDir: temp.dir, log });
  await store.load(keys.publicKey);
  const gone = service.subscribe();
  await store.add('phone', parseSubscription(gone.subscription));
  service.answer(gone.subscription.endpoint, 410);
  let full = true;
  const sender = createPushSender({
    subscriptions: {
      ...store,
      remove: (endpoints) =>
        full
          ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))
          : store.remove(endpoints),
    },
    vapid: () => ({ keys, subject: 'mailto:a@b.example' }),
    log,
    agent: service.agent,
  });
  const payload = { title: 'Test', body: 'x', url: '/', tag: 'test' };
  expect(await sender.send(payload)).toMatchObject({ pruned: 0 });
  expect(records.find((r) => r.msg === 'gone push subscriptions not deleted')).toMatchObject({
    level: 'warn',
    count: 1,
  });
  expect(store.list().map((s) => s.endpoint)).toContain(gone.subscription.endpoint);
  full = false;
  expect(await sender.send(payload)).toMatchObject({ pruned: 1 });
  expect(store.list().map((s) => s.endpoint)).not.toContain(gone.subscription.endpoint);
});
