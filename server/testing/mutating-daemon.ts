/**
 * A daemon that says odd things: a proxy in front of the simulator that passes every request
 * through and, for a share of the answers, changes one or two members of the JSON body (HTTP and
 * socket frames alike) into a generated value of another type (json-mutation.ts). The cockpit
 * must treat the daemon as input from outside: a future release may change a shape, and the
 * daemon's port may be answered by something else entirely. Seeded; `mutations` keeps the last
 * changes made, for a failure message.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { seeded } from './fuzz.ts';
import { mutateJson } from './json-mutation.ts';

export interface MutatingDaemon {
  url: string;
  /** The last changes made: where, and the member's new value (abridged). */
  readonly mutations: string[];
  counts(): { passed: number; mutated: number };
  close(): Promise<void>;
}

export interface MutatingDaemonOptions {
  /** The daemon to stand in front of (the simulator's URL). */
  upstream: string;
  seed: number;
  /** Share of JSON answers and frames changed (default 0.3). */
  rate?: number;
  /** Paths answered unchanged, such as the route list the cockpit reads once at connect. */
  spare?: (path: string) => boolean;
}

export async function startMutatingDaemon(options: MutatingDaemonOptions): Promise<MutatingDaemon> {
  const rng = seeded(options.seed);
  const rate = options.rate ?? 0.3;
  const spare = options.spare ?? (() => false);
  const upstream = new URL(options.upstream);
  const mutations: string[] = [];
  const counts = { passed: 0, mutated: 0 };
  const sockets = new Set<WebSocket>();

  const answer = (where: string, path: string, text: string): string => {
    if (spare(path) || rng() >= rate) {
      counts.passed += 1;
      return text;
    }
    counts.mutated += 1;
    return mutateJson(text, rng, where, mutations);
  };

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '/';
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
      },
      (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          let body = Buffer.concat(chunks);
          if (String(up.headers['content-type']).includes('json')) {
            body = Buffer.from(answer(`${req.method} ${path}`, path.split('?')[0] ?? path, body.toString()));
          }
          const headers = { ...up.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(up.statusCode ?? 502, headers).end(body);
        });
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  };

  const server = createServer(forward);
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = req.url ?? '/';
    const to = new WebSocket(`ws://${upstream.host}${path}`, { perMessageDeflate: false });
    to.once('error', () => socket.destroy());
    to.once('open', () => {
      wss.handleUpgrade(req, socket, head, (from) => {
        sockets.add(from).add(to);
        to.on('message', (data, isBinary) => {
          if (from.readyState !== WebSocket.OPEN) return;
          from.send(isBinary ? data : answer(`WS ${path}`, path.split('?')[0] ?? path, String(data)), {
            binary: isBinary,
          });
        });
        from.on('message', (data, isBinary) => to.readyState === WebSocket.OPEN && to.send(data, { binary: isBinary }));
        const end = (): void => {
          from.close();
          to.close();
        };
        from.on('close', end).on('error', end);
        to.on('close', end).on('error', end);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    mutations,
    counts: () => ({ ...counts }),
    async close() {
      for (const s of sockets) s.terminate();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
