/**
 * WebRTC relay signalling on the /ws socket of the desktop server (server/camera/relay/README-relay.md).
 * The cockpit offers, the browser answers; one video viewer per socket.
 */

/** Browser → cockpit. `start` replaces the socket's previous viewer, if any. */
export type VideoClientMessage =
  | { type: 'video'; action: 'start' }
  | { type: 'video'; action: 'answer'; id: number; sdp: string }
  | { type: 'video'; action: 'candidate'; id: number; candidate: string; sdpMid?: string; sdpMLineIndex?: number }
  | { type: 'video'; action: 'stop'; id: number };

/** Why the relay would not serve a viewer: the camera is not the daemon's WebRTC one, or it is full. */
export type VideoRefusal = 'VIDEO_UNAVAILABLE' | 'VIDEO_BUSY';

/** Cockpit → browser. */
export type VideoServerMessage =
  | { type: 'video'; action: 'offer'; id: number; sdp: string }
  | { type: 'video'; action: 'refused'; code: VideoRefusal; error: string }
  | { type: 'video'; action: 'closed'; id: number; reason: string };
