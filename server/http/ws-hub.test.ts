/**
 * The socket hub's boundaries: a handler that throws closes its own socket with 1011 and leaves
 * every other socket alone, a wrong credential on an upgrade meets the same brute-force
 * throttle as on HTTP, and a socket closed under its client is not heard any more.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '../errors.ts';
import { createLog, type LogRecord } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createManualClock, type ManualClock } from '../testing/manual-clock.ts';
import { upgradeRequest } from '../testing/hostile-requests.ts';
import { DRAIN_MS, listen } from './listeners.ts';
import { WsHub } from './ws-hub.ts';

const TOKEN = 'hub-test-owner-token-0123456789';
/** A passkey session's cookie value and key, so a test can end the session under an open socket. */
const SESSION = 'hub-test-session-id';
const SESSION_KEY = 'hub-test-session-key';

let server: Server;
let hub: WsHub;
/** The hub's timer for cutting sockets at shutdown. */
let clock: ManualClock;
let url: string;
const records: LogRecord[] = [];
/** Every message the socket handler was given, in order. */
const heard: string[] = [];
const throttle = { delays: [] as string[], failures: [] as string[], successes: [] as string[], delayMs: 0 };

beforeEach(async () => {
  records.length = 0;
  heard.length = 0;
  clock = createManualClock();
  throttle.delays.length = 0;
  throttle.failures.length = 0;
  throttle.successes.length = 0;
  throttle.delayMs = 0;
  hub = new WsHub({
    credentials: {
      ownerToken: TOKEN,
      validateSession: (id) =>
        id === SESSION
          ? { key: SESSION_KEY, credentialId: 'hub-test-passkey', expiresAt: Date.now() + 3_600_000 }
          : undefined,
    },
    loopbackReads: false,
    schedule: clock.schedule,
    failures: {
      delayFor: (key) => (throttle.delays.push(key), throttle.delayMs),
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
          heard.push(String(data));
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

/** A masked client frame (a zero mask leaves the payload as written) of at most 125 bytes. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

/** A socket speaking WebSocket by hand: it answers nothing unless the test writes it. */
async function openRaw(cookie?: string): Promise<{ socket: Socket; received: () => Buffer; closed: Promise<void> }> {
  const { port } = new URL(url);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  let bytes = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => void (bytes = Buffer.concat([bytes, chunk])));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(upgradeRequest('/ws', `127.0.0.1:${port}`, cookie ? [`Cookie: cockpit_session=${cookie}`] : []));
  await eventually(() => bytes.includes('\r\n\r\n'), { what: 'the handshake answer' });
  expect(bytes.toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
  bytes = bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);
  return { socket, received: () => bytes, closed };
}

it('hears nothing more from a socket whose session ended, while its client holds back the close', async () => {
  const raw = await openRaw(SESSION);
  raw.socket.write(clientFrame(0x1, Buffer.from('before')));
  await eventually(() => raw.received().includes('"echo":"before"'), { what: 'the echo of the first message' });
  hub.closeSession(SESSION_KEY);
  // The hub's close frame: 0x88, the code 4401 in its payload.
  await eventually(() => raw.received().includes(Buffer.from([0x88])), { what: 'the close frame' });
  // A client that does not answer the close at once may still write; the session is over all the same.
  raw.socket.write(clientFrame(0x1, Buffer.from('after')));
  raw.socket.write(clientFrame(0x8, Buffer.from([0x03, 0xe8])));
  await raw.closed;
  expect(heard).toEqual(['before']);
});

it('cuts a socket whose client does not answer the shutdown close once HTTP requests would be cut too', async () => {
  const raw = await openRaw(SESSION);
  hub.closeAll();
  await eventually(() => raw.received().includes(Buffer.from([0x88])), { what: 'the close frame' });
  // The client says nothing back; the listener's close would wait for this socket.
  clock.advance(DRAIN_MS);
  await raw.closed;
  await eventually(() => hub.clients('/ws').size === 0, { what: 'the hub to let go of the socket' });
});

it('cuts a refused socket whose client does not answer the close after the same time', async () => {
  // No credential: the hub completes the handshake, then sends its close frame with 4401.
  const raw = await openRaw();
  const closeCode = () =>
    raw.received()[0] === 0x88 && raw.received().length >= 4 ? raw.received().readUInt16BE(2) : 0;
  await eventually(() => closeCode() === WS_CLOSE.UNAUTHORIZED, { what: 'the 4401 close' });
  clock.advance(DRAIN_MS);
  await raw.closed;
});

it('closes with 1001 a socket that opens after closeAll, where it was admitted and held the stop', async () => {
  hub.closeAll();
  // A keep-alive connection may still upgrade while the listener drains.
  const late = await open(`token=${TOKEN}`);
  const first = Promise.race([late.closed, nextMessage(late.ws)]);
  late.ws.send('hello');
  expect(await first).toBe(WS_CLOSE.GOING_AWAY);
  expect(hub.clients('/ws').size).toBe(0);
  expect(heard).toEqual([]);
});

it('answers at closeAll an upgrade held back for a wrong credential, where it held the stop for the whole delay', async () => {
  throttle.delayMs = 60_000;
  const { port } = new URL(url);
  const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: '127.0.0.42' });
  let bytes = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => void (bytes = Buffer.concat([bytes, chunk])));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(upgradeRequest('/ws?token=wrong-token', `127.0.0.1:${port}`));
  await eventually(() => throttle.delays.length === 1, { what: 'the upgrade to be held back' });
  hub.closeAll();
  // The handshake, then at once the close frame (0x88) with 1001 in its payload.
  await eventually(() => bytes.includes(Buffer.from([0x88, 0x02 + 'server shutting down'.length])), {
    what: 'the going-away close',
  });
  const frame = bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);
  expect(bytes.toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
  expect(frame.readUInt16BE(2)).toBe(WS_CLOSE.GOING_AWAY);
  socket.destroy();
  await closed;
});
