/**
 * `{type: "app_logs", app, on}` on /ws: a dashboard watching one app's log gets each new line as an
 * `app_log` frame (`AppLogFrame`, server/contract/apps.ts) until it sends `on: false` or its
 * socket closes. Watching keeps the follow running (app-log-stream.ts).
 */
import type { WebSocket } from 'ws';
import type { AppLogFrame } from '../contract/apps.ts';
import type { AppLogsFrame, ErrorFrame } from '../contract/ws.ts';
import { appName } from './apps-service.ts';
import type { AppLogStream } from './app-log-stream.ts';

interface SocketClient {
  readonly ws: WebSocket;
  send(frame: object): boolean;
}

export function appLogsSocketHandler(
  stream: AppLogStream,
): (client: SocketClient, message: Record<string, unknown>) => void {
  const watching = new WeakMap<WebSocket, { app: string; stop: () => void }>();
  const stop = (ws: WebSocket) => {
    watching.get(ws)?.stop();
    watching.delete(ws);
  };
  // At most one close listener per socket, however often it asks (server/camera/relay/relay-socket.ts).
  const closeWatched = new WeakSet<WebSocket>();
  return (client, message) => {
    const { ws } = client;
    let app: string;
    try {
      app = appName(message.app);
    } catch (error) {
      client.send({ type: 'error', code: 'BAD_REQUEST', error: `app_logs: ${(error as Error).message}` });
      return;
    }
    if (typeof message.on !== 'boolean') {
      client.send({
        type: 'error',
        code: 'BAD_REQUEST',
        error: 'app_logs: "on" must be true or false',
      } satisfies ErrorFrame);
      return;
    }
    stop(ws);
    if (message.on) {
      const unwatch = stream.watch(app, (line, source) =>
        client.send({ type: 'app_log', app, source, line } satisfies AppLogFrame),
      );
      watching.set(ws, { app, stop: unwatch });
      if (!closeWatched.has(ws)) {
        closeWatched.add(ws);
        ws.once('close', () => stop(ws));
      }
    }
    client.send({ type: 'app_logs', app, on: message.on } satisfies AppLogsFrame);
  };
}
