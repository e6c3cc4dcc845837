/**
 * For deadline tests (server/deadline.ts): a server that answers 200 and then sends a JSON body
 * forever, a little at a time, and a fetch that forces a garbage collection once the headers
 * are in, so a timeout held only weakly would be collected before it fires.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface TrickleServer {
  url: string;
  close(): void;
}

/** Answers every request with 200 and `start`, then a space every 20 ms, never ending. */
export async function startTrickleServer(start: string): Promise<TrickleServer> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(start);
    const drip = setInterval(() => res.write(' '), 20);
    res.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** The global fetch, with a full garbage collection as soon as the answer's headers are in. */
export function fetchThenCollect(): typeof fetch {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return async (input, init) => {
    const response = await fetch(input, init);
    gc();
    return response;
  };
}
