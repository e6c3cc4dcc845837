/**
 * The requests that used to stop a whole cockpit with one line, kept as fixed regression cases
 * for both servers and both transports (server/desktop/hostile-input.test.ts,
 * server/wheeled/hostile-input.test.ts).
 */
import { randomBytes } from 'node:crypto';

/** An otherwise valid WebSocket upgrade to `target`, with extra header lines. */
export function upgradeRequest(target: string, host: string, extra: string[] = []): Buffer {
  return Buffer.from(
    [
      `GET ${target} HTTP/1.1`,
      `Host: ${host}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      ...extra,
      '',
      '',
    ].join('\r\n'),
  );
}

/** Each crasher as a name and the bytes that carried it. */
export function crashers(socketPath: string, host: string): { name: string; bytes: Buffer }[] {
  return [
    { name: 'malformed percent escape in the session cookie', bytes: upgradeRequest(socketPath, host, ['Cookie: cockpit_session=%E0%A4%A']) },
    { name: 'absolute-form target with a broken IPv6 host', bytes: upgradeRequest('http://[/ws', host) },
    { name: 'absolute-form target with an unclosed IPv6 literal', bytes: upgradeRequest(`http://[::1${socketPath}`, host) },
    { name: 'malformed Host on an upgrade', bytes: upgradeRequest(socketPath, '[::1') },
    { name: 'malformed percent escape in the session cookie over HTTP', bytes: Buffer.from(`GET /api/state HTTP/1.1\r\nHost: ${host}\r\nCookie: cockpit_session=%E0%A4%A\r\n\r\n`) },
    { name: 'broken absolute-form target over HTTP', bytes: Buffer.from(`GET http://[/api/state HTTP/1.1\r\nHost: ${host}\r\n\r\n`) },
  ];
}
