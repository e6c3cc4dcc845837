/**
 * The socket hub's boundaries: a handler that throws closes its own socket with 1011 and leaves
 * every other socket alone, and a wrong credential on an upgrade meets the same brute-force
 * throttle as on HTTP.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '../errors.ts';
import { createLog, type LogRecord } from '../log.ts';
import { listen } from './listeners.ts';
import { WsHub } from './ws-hub.ts';

const TOKEN = 'hub-test-owner-token-0123456789';

let server: Server;
let hub: WsHub;
let url: string;
const records: LogRecord[] = [];
const throttle = { delays: [] as string[], failures: [] as string[], successes: [] as string[] };

beforeEach(async () => {
  records.length = 0;
  throttle.delays.length = 0;
  throttle.failures.length = 0;
  throttle.successes.length = 0;
  hub = new WsHub({
    credentials: { ownerToken: TOKEN, validateSession: () => undefined },
    loopbackReads: false,
    failures: {
      delayFor: (key) => (throttle.delays.push(key), 0),
      recordFailure: (key) => void throttle.failures.push(key),
      recordSuccess: (key) => void throttle.successes.push(key),
    },
    log: createLog({ level: 'debug', sink: (r) => void records.push(r) }),
  });
  hub.mount({
    routes: [{ method: 'WS', path: '/ws', access: 'key', queryToken: true, summary: 'test socket' }],
    handlers: {
      '/ws': (client) => {
        if (client.query.get('fail') === 'connect') throw new Error('handler failed on connect');
        client.onMessage((data) => {
          if (String(data) === 'boom') throw new Error('handler failed on a message');
          client.send({ echo: String(data) });
        });
      },
    },
  });
  server = createServer();
  hub.attach(server);
  url = `ws://127.0.0.1:${await listen(server, 0, '127.0.0.1')}/ws`;
});

afterEach(async () => {
  hub.closeAll();
  await new Promise((resolve) => server.close(resolve));
});

function open(query: string, localAddress = '127.0.0.1'): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}?${query}`, { localAddress });
    const closed = new Promise<number>((done) => ws.once('close', (code) => done(code)));
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(String(data))));
}

it('closes only the socket whose message handler threw, with 1011 and a log line', async () => {
  const victim = await open(`token=${TOKEN}`);
  const bystander = await open(`token=${TOKEN}`);
  victim.ws.send('boom');
  expect(await victim.closed).toBe(WS_CLOSE.INTERNAL);
  expect(
    records.some((r) => r.msg === 'socket handler failed' && String(r['error']).includes('failed on a message')),
  ).toBe(true);
  // The other socket still talks, and the hub still admits new ones.
  const echoed = nextMessage(bystander.ws);
  bystander.ws.send('hello');
  expect(JSON.parse(await echoed)).toEqual({ echo: 'hello' });
  const late = await open(`token=${TOKEN}`);
  expect(late.ws.readyState).toBe(WebSocket.OPEN);
  expect(hub.clients('/ws').size).toBe(2);
  bystander.ws.close();
  late.ws.close();
});

it('closes a socket whose connection handler threw, with 1011', async () => {
  const broken = await open(`token=${TOKEN}&fail=connect`);
  expect(await broken.closed).toBe(WS_CLOSE.INTERNAL);
  expect(records.some((r) => r.msg === 'socket handler failed' && r['during'] === 'connection /ws')).toBe(true);
});

it('counts a wrong credential on an upgrade towards the brute-force throttle, and a right one clears it', async () => {
  const wrong = await open('token=wrong-token', '127.0.0.41');
  expect(await wrong.closed).toBe(WS_CLOSE.UNAUTHORIZED);
  expect(throttle.delays).toEqual(['127.0.0.41']);
  expect(throttle.failures).toEqual(['127.0.0.41']);
  const right = await open(`token=${TOKEN}`, '127.0.0.41');
  expect(throttle.successes).toEqual(['127.0.0.41']);
  right.ws.close();
});
