/**
 * The WebSocket side of the simulated webrtcsink signalling server: JSON text messages, one
 * peer per socket, on 127.0.0.1 like the rest of the simulator (docs/architecture.md, "Processes and data flow"). The real
 * daemon listens on 8443; embedded simulators take a free port.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import type { Log } from '../log.ts';
import type { SignallingHub } from './camera-signalling.ts';

export interface SignallingServer {
  readonly port: number;
  /** `ws://127.0.0.1:<port>` */
  readonly url: string;
  /** Sockets open now. */
  connections(): number;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function parse(data: WebSocket.RawData): unknown {
  try {
    return JSON.parse(data.toString()) as unknown;
  } catch {
    return undefined;
  }
}

export async function startSignallingServer(
  hub: SignallingHub,
  options: { port: number; log: Log },
): Promise<SignallingServer> {
  const http = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket signalling only');
  });
  const wss = new WebSocketServer({ server: http, maxPayload: 1024 * 1024, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    const peerId = hub.join({
      send: (message) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
      },
    });
    ws.on('message', (data) => hub.receive(peerId, parse(data)));
    ws.on('close', () => hub.leave(peerId));
    ws.on('error', (error) => options.log.debug('signalling socket error', { error: error.message }));
  });
  const port = await listen(http, options.port);
  let closing: Promise<void> | undefined;
  return {
    port,
    url: `ws://127.0.0.1:${port}`,
    connections: () => wss.clients.size,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return closing;
    },
  };
}
