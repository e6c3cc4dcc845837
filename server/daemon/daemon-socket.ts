/**
 * Options of every WebSocket the cockpit opens to the daemon: state, targets, move events, app
 * jobs and logs. The daemon's frames are small (a full state frame is about 2 KB; a log line or a
 * job's progress line less), so a frame over 1 MiB is not one of them. ws then closes the socket
 * (1009) and the caller's reconnect or fallback takes over, instead of ws's default of holding up
 * to 100 MiB for one message. A handshake that never finishes is given up after `handshakeMs`, and
 * compression is off: between two processes on one machine it costs CPU for nothing.
 */
import type { ClientOptions } from 'ws';

export const DAEMON_FRAME_LIMIT = 1024 * 1024;

export function daemonSocketOptions(handshakeMs = 2000): ClientOptions {
  return { handshakeTimeout: handshakeMs, perMessageDeflate: false, maxPayload: DAEMON_FRAME_LIMIT };
}
