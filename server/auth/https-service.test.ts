import { connect } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { listen } from '../http/listeners.ts';
import { silentLog } from '../log.ts';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { createHttpsService } from './https-service.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

it('closes a connection that never starts its TLS handshake, at the handshake bound', async () => {
  // A short bound stands in for the 10 s one; without it Node holds the socket for 120 s and
  // this test runs out of time.
  const service = await createHttpsService({ dataDir: dir, log: silentLog, handshakeMs: 300 });
  const server = service.server((_req, res) => res.end('ok'));
  const port = await listen(server, 0, '127.0.0.1');
  try {
    const silent = connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => silent.once('connect', resolve).once('error', reject));
    // The server, not the client, ends it: the client has written nothing and only waits.
    await new Promise<void>((resolve) => silent.once('close', () => resolve()));
    expect(silent.bytesWritten).toBe(0);
  } finally {
    service.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
