/**
 * Ties a camera view to the dashboard's one socket for the life of the component that calls it:
 * hears health and picture messages, asks for pictures while the socket is open, the page is seen
 * and the socket path is in use (the cockpit forgets the wish with the socket, so every reconnect
 * asks again), and switches to the MJPEG stream when the socket path brings nothing.
 */
import { untrack } from 'svelte';
import type { Connection } from '../connection/connection.svelte.ts';
import { socketPathFailed } from './camera-status.ts';
import type { CameraFeed } from './camera.svelte.ts';

export function followCamera(feed: CameraFeed, connection: Connection): void {
  $effect(() => connection.listen((frame) => feed.hear(frame)));
  $effect(() => connection.listenBinary((data) => feed.hearBinary(data)));
  $effect(() => {
    const onVisibility = () => (feed.visible = document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  });
  $effect(() => {
    if (connection.presence !== 'connected' || !feed.visible || feed.path !== 'socket') return;
    if (!connection.send({ type: 'camera', on: true })) return;
    untrack(() => feed.asking(Date.now()));
    return () => {
      connection.send({ type: 'camera', on: false });
      untrack(() => feed.asking(null));
    };
  });
  // A fresh socket is a fresh chance for the faster path.
  $effect(() => {
    if (connection.presence === 'connected') untrack(() => feed.useSocket());
  });
  $effect(() => {
    const failed = socketPathFailed({
      askedAt: feed.askedAt,
      lastFrameAt: feed.shownAt,
      health: feed.health,
      now: connection.now,
    });
    if (failed) untrack(() => feed.useStream());
  });
}
