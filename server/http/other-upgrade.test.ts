/**
 * A request asking to upgrade to a protocol the cockpit does not speak (other-upgrade.ts): `curl
 * --http2` sends its first request over HTTP/1.1 with `Upgrade: h2c`, and is answered over
 * HTTP/1.1, where it was refused 400; a socket upgrade and a request with a body are judged as before.
 */
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { startHarness, TEST_TOKEN, type Harness } from '../testing/cockpit-harness.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { DRAIN_MS, listen } from './listeners.ts';
import { WsHub } from './ws-hub.ts';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

/**
 * Sends `head` on a fresh connection and reads until the server closes it. From 127.0.0.2, which
 * the loopback rule does not trust (it wants exactly 127.0.0.1), so only the key lets it in.
 */
function exchange(head: string): Promise<string> {
  const { hostname, port } = new URL(harness.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress: '127.0.0.2' }, () => socket.write(head));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const H2C = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n';

it('answers a GET or HEAD that asks for h2c over HTTP/1.1, then closes the connection', async () => {
  const host = `Host: ${new URL(harness.url).host}\r\n`;
  const auth = `Authorization: Bearer ${TEST_TOKEN}\r\n`;
  const got = await exchange(`GET /api/state HTTP/1.1\r\n${host}${auth}${H2C}\r\n`);
  expect(got).toMatch(/^HTTP\/1\.1 200 /);
  expect(got).toMatch(/\r\nconnection: close\r\n/i);
  expect(JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4))).toHaveProperty('head');
  const head = await exchange(`HEAD /api/health HTTP/1.1\r\n${host}${auth}${H2C}\r\n`);
  expect(head).toMatch(/^HTTP\/1\.1 200 /);
  // The gate and the error mapping are the ordinary ones: no key is a JSON 401.
  const anonymous = await exchange(`GET /api/state HTTP/1.1\r\n${host}${H2C}\r\n`);
  expect(anonymous).toMatch(/^HTTP\/1\.1 401 /);
  expect(anonymous).toContain('"code":"AUTH_REQUIRED"');
});

it('still refuses an upgrade it cannot answer: a body, or a WebSocket one that is malformed', async () => {
  const host = `Host: ${new URL(harness.url).host}\r\n`;
  const post = await exchange(`POST /api/control/stop HTTP/1.1\r\n${host}${H2C}Content-Length: 2\r\n\r\n{}`);
  expect(post).toMatch(/^HTTP\/1\.1 400 /);
  const socket = await exchange(`GET /ws HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
  expect(socket).toMatch(/^HTTP\/1\.1 400 /);
});

it('ends such an answer still unanswered when the hub closes, after the drain every request gets', async () => {
  const clock = createManualClock();
  const hub = new WsHub({
    credentials: { ownerToken: TEST_TOKEN, validateSession: () => undefined },
    loopbackReads: false,
    schedule: clock.schedule,
    log: silentLog,
  });
  hub.mount({ routes: [], handlers: {} });
  // A handler that never answers: the listener's own drain cannot see a socket Node handed over.
  const server = createServer(() => undefined);
  hub.attach(server);
  const port = await listen(server, 0, '127.0.0.1');
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const asked = new Promise((resolve) => server.once('request', resolve));
  socket.write(`GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${H2C}\r\n`);
  await asked;
  hub.closeAll();
  clock.advance(DRAIN_MS);
  await closed;
  await new Promise((resolve) => server.close(resolve));
});
