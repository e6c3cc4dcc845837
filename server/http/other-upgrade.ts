/**
 * An Upgrade to a protocol the servers do not speak (`curl --http2 http://…` asks for h2c on its
 * first request) may be ignored, and the request answered over HTTP/1.1 (RFC 9110, "Upgrade").
 * Node hands every request that names an Upgrade to the 'upgrade' listener, where it used to be
 * refused 400, so such a client could not read anything. A body-less GET or HEAD is given back to
 * the ordinary request handler instead, on a response that closes the connection: Node no longer
 * parses this socket, so no second request may follow on it.
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** True for a body-less GET or HEAD whose Upgrade names no WebSocket, which HTTP/1.1 can answer. */
export function upgradesToAnotherProtocol(req: IncomingMessage, head: Buffer): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const upgrade = req.headers['upgrade'];
  if (typeof upgrade !== 'string') return false;
  if (upgrade.split(',').some((token) => token.trim().toLowerCase().startsWith('websocket'))) return false;
  const length = req.headers['content-length'];
  return (
    head.length === 0 && req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')
  );
}

/** Answers the request with the server's own request handler, as if no Upgrade had been asked. */
export function answerWithoutUpgrade(server: Server, req: IncomingMessage, socket: Duplex): void {
  // Node took its own listeners off the socket when it handed it over: a reset must not throw.
  socket.on('error', () => socket.destroy());
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  // Node stops reading an upgraded socket, so the client's end never comes: destroy once the
  // answer is out, or the socket (and the listener's close, which waits for it) stays open.
  res.once('finish', () => {
    res.detachSocket(socket as Socket);
    socket.once('finish', () => socket.destroy());
    socket.end();
  });
  // A response ended by a handler's error, or a client gone mid-answer, must not hold the socket.
  res.once('close', () => socket.destroy());
  server.emit('request', req, res);
}
