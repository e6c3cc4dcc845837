/**
 * Pushes go only to push services on the internet (push-destination.ts): the host-name rule, the
 * address rule, the lookup that applies it to every resolved address, a real connection through
 * the default agent to a name that resolves to this machine (refused before a byte is sent), the
 * sender using that agent by default, and subscriptions kept by an older version dropped at load.
 */
import { writeFile } from 'node:fs/promises';
import { request, type Agent } from 'node:https';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { makeTempDir, recordingLog } from '../store/testing/temp-dir.ts';
import { isInternetAddress } from '../http/internet-address.ts';
import { internetOnlyLookup, isPushServiceEndpoint, pushAgent, pushHostProblem } from './push-destination.ts';
import { createPushSender } from './push-sender.ts';
import { createSubscriptionStore, SUBSCRIPTIONS_FILE } from './subscriptions.ts';
import { createReceiver, subscriptionOf } from './testing/web-push-receiver.ts';
import { loadVapidKeys } from './vapid-keys.ts';

const hostOf = (url: string) => new URL(url).hostname;

describe('the host name', () => {
  it("takes the browsers' push services", () => {
    for (const url of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QH0',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://FCM.GoogleAPIs.com./fcm/send/abc',
    ])
      expect(pushHostProblem(hostOf(url)), url).toBeUndefined();
  });

  it('refuses IP addresses in every spelling URL accepts, and local names', () => {
    const cases: [string, string][] = [
      ['https://127.0.0.1/push', 'an IP address'],
      ['https://2130706433/push', 'an IP address'],
      ['https://0x7f.1/push', 'an IP address'],
      ['https://192.168.1.1:8443/push', 'an IP address'],
      ['https://8.8.8.8/push', 'an IP address'],
      ['https://[::1]/push', 'an IP address'],
      ['https://[::ffff:7f00:1]/push', 'an IP address'],
      ['https://localhost/push', 'a local name'],
      ['https://LOCALHOST./push', 'a local name'],
      ['https://cockpit.localhost/push', 'a local name'],
      ['https://printer.local/push', 'a local name'],
      ['https://nas.lan/push', 'a local name'],
      ['https://router.home.arpa/push', 'a local name'],
      ['https://metadata.google.internal/push', 'a local name'],
      ['https://intranet/push', 'a name without a domain'],
    ];
    for (const [url, problem] of cases) expect(pushHostProblem(hostOf(url)), url).toBe(problem);
  });

  it('judges whole endpoints: https on a push host only, anything unreadable refused', () => {
    expect(isPushServiceEndpoint('https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    expect(isPushServiceEndpoint('http://fcm.googleapis.com/fcm/send/abc')).toBe(false);
    expect(isPushServiceEndpoint('https://10.0.0.2/push')).toBe(false);
    expect(isPushServiceEndpoint('not a url')).toBe(false);
  });
});

describe('the address', () => {
  it('is on the internet unless a special-purpose block holds it', () => {
    for (const address of [
      '8.8.8.8',
      '142.250.74.10',
      '2a00:1450:4007:80e::200a',
      '64:ff9b::808:808',
      '::ffff:8.8.8.8',
    ])
      expect(isInternetAddress(address), address).toBe(true);
    for (const address of [
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.10',
      '198.18.0.1',
      '224.0.0.251',
      '255.255.255.255',
      '::',
      '::1',
      'fd00::1',
      'fe80::1',
      'ff02::fb',
      '::ffff:127.0.0.1',
      '::ffff:192.168.1.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:c0a8:101',
      'not an address',
    ])
      expect(isInternetAddress(address), address).toBe(false);
    // Just outside the private blocks.
    expect(isInternetAddress('172.32.0.1')).toBe(true);
    expect(isInternetAddress('100.128.0.1')).toBe(true);
  });

  it('is checked for every address a name resolves to, not only the first', async () => {
    const resolving = (addresses: string[]) =>
      internetOnlyLookup((_host, _options, callback) =>
        callback(
          null,
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        ),
      );
    const ask = (lookup: ReturnType<typeof resolving>, all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
        lookup('push.example', { all }, (error, address, family) => resolve({ error, address, family })),
      );

    expect(await ask(resolving(['142.250.74.10']), false)).toEqual({
      error: null,
      address: '142.250.74.10',
      family: 4,
    });
    expect((await ask(resolving(['142.250.74.10', '2a00:1450::1']), true)).address).toEqual([
      { address: '142.250.74.10', family: 4 },
      { address: '2a00:1450::1', family: 6 },
    ]);
    const rebound = await ask(resolving(['142.250.74.10', '192.168.1.20']), false);
    expect(rebound.error?.code).toBe('EPUSHNOTINTERNET');
    expect(rebound.error?.message).toBe(
      'push.example resolves to 192.168.1.20, which is not on the internet; push services are',
    );
    expect((await ask(resolving([]), true)).error?.code).toBe('EPUSHNOTINTERNET');
    const failing = internetOnlyLookup((_host, _options, callback) => {
      const error: NodeJS.ErrnoException = new Error('getaddrinfo ENOTFOUND push.example');
      error.code = 'ENOTFOUND';
      callback(error, []);
    });
    expect((await ask(failing, false)).error?.code).toBe('ENOTFOUND');
  });
});

describe('the default agent', () => {
  let listener: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    // A TCP listener on this machine: the agent must never reach it. It counts and hangs up.
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  /** A request to localhost:<port> through `agent`: the error code it ends with. */
  const attempt = (agent: Agent) =>
    new Promise<string | undefined>((resolve) => {
      const req = request({ host: 'localhost', port, path: '/push', method: 'POST', agent, family: 4 }, (res) => {
        res.resume();
        resolve('answered');
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end();
    });

  it('refuses a name that resolves to this machine before connecting', async () => {
    // The control: an agent without the rule reaches the listener, so the count can move.
    const { Agent: PlainAgent } = await import('node:https');
    const before = connections;
    // The listener hangs up at once: a reset, whatever this Node calls it, but not the rule's refusal.
    expect(await attempt(new PlainAgent({ keepAlive: false }))).not.toBe('EPUSHNOTINTERNET');
    expect(connections).toBe(before + 1);

    expect(await attempt(pushAgent())).toBe('EPUSHNOTINTERNET');
    expect(connections).toBe(before + 1);
  });

  it('is what the sender uses when no agent is given', async () => {
    const temp = await makeTempDir('push-destination-');
    try {
      const { log, records } = recordingLog();
      const keys = await loadVapidKeys({ dataDir: temp.dir, log });
      const store = createSubscriptionStore({ dataDir: temp.dir, log });
      await store.load(keys.publicKey);
      // Straight into the store, past the edge's name rule: only the agent stands in the way.
      await store.add('token', {
        endpoint: `https://localhost:${port}/push/abc`,
        keys: subscriptionOf('https://x.example/', createReceiver()).keys,
      });
      const sender = createPushSender({
        subscriptions: store,
        vapid: () => ({ keys, subject: 'mailto:a@b.example' }),
        log,
      });
      const before = connections;
      expect(await sender.send({ title: 't', body: 'b', url: '/', tag: 'test' })).toEqual({
        sent: 0,
        pruned: 0,
        failed: 1,
      });
      expect(connections).toBe(before);
      expect(records.find((r) => r.msg === 'push not delivered')?.reason).toMatch(/not on the internet/);
    } finally {
      await temp.cleanup();
    }
  });
});

it('drops, at load, subscriptions an older version kept for hosts that are not push services', async () => {
  const temp = await makeTempDir('push-destination-');
  try {
    const { keys } = subscriptionOf('https://x.example/', createReceiver());
    const entry = (endpoint: string) => ({ credential: 'token', endpoint, keys, vapidKey: 'key-1', createdAt: 1 });
    const file = join(temp.dir, SUBSCRIPTIONS_FILE);
    await writeFile(
      file,
      JSON.stringify({
        subscriptions: [
          entry('https://192.168.1.20/push/a'),
          entry('https://fcm.googleapis.com/fcm/send/b'),
          entry('https://printer.local/push/c'),
        ],
      }),
    );
    const { log, records } = recordingLog();
    const store = createSubscriptionStore({ dataDir: temp.dir, log });
    await store.load('key-1');
    expect(store.list().map((s) => s.endpoint)).toEqual(['https://fcm.googleapis.com/fcm/send/b']);
    expect(
      records.find((r) => r.msg === 'dropped push subscriptions to hosts that are not push services'),
    ).toMatchObject({
      count: 2,
    });
    const again = createSubscriptionStore({ dataDir: temp.dir, log: silentLog });
    await again.load('key-1');
    expect(again.list()).toHaveLength(1);
  } finally {
    await temp.cleanup();
  }
});
