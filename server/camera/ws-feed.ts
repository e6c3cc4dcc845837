/**
 * Camera frames on the dashboard's /ws socket, the lowest-latency path: a client sends
 * `{"type":"camera","on":true}` and gets binary frames (frame-packet.ts), newest only, until it
 * sends `on:false` or leaves. Each client is one hub subscriber; its delivery completes when
 * the socket has taken the bytes, so a slow client skips frames instead of queueing them.
 */
import WebSocket from 'ws';
import type { CameraFeedFrame, ErrorFrame } from '../contract/ws.ts';
import type { WsClient } from '../http/ws-hub.ts';
import type { FrameHub, Subscription } from './frame-hub.ts';
import { encodeFramePacket } from './frame-packet.ts';
import type { CameraFrame } from './frame.ts';

export type CameraSocketClient = Pick<WsClient, 'ws' | 'send'>;

function sendFrame(ws: WebSocket, frame: CameraFrame): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!frame.jpeg) return resolve();
    if (ws.readyState !== WebSocket.OPEN) return reject(new Error('socket closed'));
    ws.send(encodeFramePacket({ ...frame, jpeg: frame.jpeg }), { binary: true }, (error) =>
      error ? reject(error) : resolve(),
    );
  });
}

/** The handler for `camera` messages, for socket-messages.ts's `handlers` table. */
export function cameraSocketHandler(
  hub: FrameHub,
): (client: CameraSocketClient, message: Record<string, unknown>) => void {
  const feeds = new WeakMap<WebSocket, Subscription>();
  const stop = (ws: WebSocket): void => {
    feeds.get(ws)?.close();
    feeds.delete(ws);
  };
  // At most one close listener per socket, however often it toggles (server/camera/relay/relay-socket.ts).
  const closeWatched = new WeakSet<WebSocket>();
  return (client, message) => {
    const { ws } = client;
    if (typeof message.on !== 'boolean') {
      client.send({
        type: 'error',
        code: 'BAD_REQUEST',
        error: 'camera: "on" must be true or false',
      } satisfies ErrorFrame);
      return;
    }
    if (!message.on) stop(ws);
    else if (!hub.configured) {
      client.send({ type: 'error', code: 'CAMERA_NO_FRAME', error: 'no camera is configured' } satisfies ErrorFrame);
      return;
    } else if (!feeds.has(ws)) {
      feeds.set(
        ws,
        hub.subscribe(
          'jpeg',
          (frame) => sendFrame(ws, frame),
          () => feeds.delete(ws),
        ),
      );
      if (!closeWatched.has(ws)) {
        closeWatched.add(ws);
        ws.once('close', () => stop(ws));
      }
    }
    client.send({ type: 'camera', on: feeds.has(ws), camera: hub.health() } satisfies CameraFeedFrame);
  };
}
