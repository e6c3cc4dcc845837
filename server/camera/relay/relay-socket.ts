/**
 * Signalling for the WebRTC relay over the dashboard's authenticated /ws socket (the same
 * socket, and so the same key, as the camera and state frames). Message shapes are declared in
 * contract/video.ts: the browser sends `start`, the cockpit answers with an SDP `offer`, the
 * browser sends its `answer` (and any trickled `candidate`). One viewer per socket; closing
 * the socket closes its viewer at once.
 */
import type WebSocket from 'ws';
import type { VideoServerMessage } from '../../contract/video.ts';
import type { ErrorFrame } from '../../contract/ws.ts';
import type { Log } from '../../log.ts';
import type { CameraSocketClient } from '../ws-feed.ts';
import type { RelayViewer, VideoRelay } from './video-relay.ts';

function bad(client: CameraSocketClient, error: string): void {
  client.send({ type: 'error', code: 'BAD_REQUEST', error: `video: ${error}` } satisfies ErrorFrame);
}

const MAX_SDP = 16 * 1024;

/** The handler for `video` messages, for socket-messages.ts's `handlers` table. */
export function videoSocketHandler(
  relay: VideoRelay,
  log: Log,
): (client: CameraSocketClient, message: Record<string, unknown>) => void {
  const viewers = new WeakMap<WebSocket, RelayViewer>();
  const say = (client: CameraSocketClient, message: VideoServerMessage): void => void client.send(message);
  const stop = (ws: WebSocket): void => {
    viewers.get(ws)?.close();
    viewers.delete(ws);
  };
  const failed = (client: CameraSocketClient, viewer: RelayViewer, step: string) => (error: unknown) => {
    log.debug('video signalling failed', { step, error: String(error) });
    if (viewers.get(client.ws) === viewer) stop(client.ws);
    say(client, { type: 'video', action: 'closed', id: viewer.id, reason: `${step} failed` });
  };

  const closeWatched = new WeakSet<WebSocket>();
  const start = (client: CameraSocketClient): void => {
    const { ws } = client;
    stop(ws);
    const ref: { viewer?: RelayViewer } = {};
    const opened = relay.open({
      closed: (reason) => {
        const { viewer } = ref;
        if (!viewer) return;
        if (viewers.get(ws) === viewer) viewers.delete(ws);
        say(client, { type: 'video', action: 'closed', id: viewer.id, reason });
      },
    });
    if (!opened.ok) return say(client, { type: 'video', action: 'refused', code: opened.code, error: opened.error });
    const viewer = opened.viewer;
    ref.viewer = viewer;
    viewers.set(ws, viewer);
    if (!closeWatched.has(ws)) {
      closeWatched.add(ws);
      ws.once('close', () => stop(ws));
    }
    viewer.offer().then((sdp) => {
      if (viewers.get(ws) === viewer) say(client, { type: 'video', action: 'offer', id: viewer.id, sdp });
    }, failed(client, viewer, 'offer'));
  };

  return (client, message) => {
    const { action } = message;
    if (action === 'start') return start(client);
    if (action !== 'stop' && action !== 'answer' && action !== 'candidate') {
      return bad(client, `"action" must be start, answer, candidate or stop, not ${JSON.stringify(action)}`);
    }
    const viewer = viewers.get(client.ws);
    if (typeof message.id !== 'number') return bad(client, `"id" must be the number from the offer`);
    // A message for a viewer the socket no longer has (replaced or closed) is stale, not an error.
    if (!viewer || viewer.id !== message.id) return;
    if (action === 'stop') return stop(client.ws);
    if (action === 'answer') {
      if (typeof message.sdp !== 'string' || message.sdp.length === 0 || message.sdp.length > MAX_SDP) {
        return bad(client, `"sdp" must be the answer's SDP text (at most ${MAX_SDP} characters)`);
      }
      return void viewer.answer(message.sdp).catch(failed(client, viewer, 'answer'));
    }
    const { candidate, sdpMid, sdpMLineIndex } = message;
    if (typeof candidate !== 'string' || candidate.length > 1024) return bad(client, '"candidate" must be a string');
    const mid = typeof sdpMid === 'string' ? sdpMid : undefined;
    const index = typeof sdpMLineIndex === 'number' ? sdpMLineIndex : undefined;
    // A candidate the relay cannot use is skipped: the browser's checks still find the way.
    viewer
      .candidate(candidate, mid, index)
      .catch((error: unknown) => log.debug('video candidate skipped', { error: String(error) }));
  };
}
