/**
 * Ties a camera view to the dashboard's one socket for the life of the component that calls it:
 * hears health and picture messages; while the socket is open and the page is seen, runs the
 * WebRTC video (relay-video.ts) or asks for socket pictures, whichever path is in use (the
 * cockpit forgets both with the socket, so every reconnect asks again); falls back from WebRTC
 * to the socket when WebRTC is refused or brings no picture, and from the socket to the MJPEG
 * stream when the socket brings nothing.
 */
import { untrack } from 'svelte';
import { RelayVideo } from '../../lib/api/relay-video.ts';
import type { Connection } from '../connection/connection.svelte.ts';
import { socketPathFailed } from './camera-status.ts';
import type { CameraFeed } from './camera.svelte.ts';

/** WebRTC needs an offer, an answer, ICE and DTLS before its first picture: a longer grace than the socket's. */
const WEBRTC_GRACE_MS = 8000;

export function followCamera(
  feed: CameraFeed,
  connection: Connection,
  video: () => HTMLVideoElement | undefined,
): void {
  $effect(() => connection.listen((frame) => feed.hear(frame)));
  $effect(() => connection.listenBinary((data) => feed.hearBinary(data)));
  $effect(() => {
    const onVisibility = () => (feed.visible = document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  });
  $effect(() => {
    const element = video();
    if (connection.presence !== 'connected' || !feed.visible || feed.path !== 'webrtc' || !element) return;
    const relay = new RelayVideo((message) => connection.send(message), element, {
      shown: (info) => feed.videoShown(info),
      failed: (reason) => feed.webrtcFailed(reason),
    });
    const unlisten = connection.listen((frame) => relay.hear(frame));
    relay.start();
    untrack(() => feed.asking(Date.now()));
    return () => {
      unlisten();
      relay.stop();
      untrack(() => feed.asking(null));
    };
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
    if (connection.presence === 'connected') untrack(() => feed.useBest());
  });
  $effect(() => {
    const webrtc = feed.path === 'webrtc';
    const failed = socketPathFailed({
      askedAt: feed.askedAt,
      lastFrameAt: feed.shownAt,
      health: feed.health,
      now: connection.now,
      ...(webrtc ? { graceMs: WEBRTC_GRACE_MS } : {}),
    });
    if (!failed) return;
    untrack(() => (webrtc ? feed.webrtcFailed(`no picture within ${WEBRTC_GRACE_MS / 1000} s`) : feed.useStream()));
  });
}
