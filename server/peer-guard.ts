/**
 * Two werift defaults that no robot wants, undone on every peer connection the cockpit and its
 * simulator make. Call `guardPeer(pc)` right before each `setLocalDescription`: werift makes an
 * ICE agent as the session description needs one (an offer's m-lines, or the remote offer's),
 * and gathers candidates in `setLocalDescription`.
 *
 * - **A public STUN server.** `iceServers: []` is not enough: werift's ICE agent falls back to
 *   Google's (stun.l.google.com:19302) whenever none is configured. Each peer connection would
 *   look the name up and send it a binding request: the robot's public address asked for on every
 *   viewer's join, a server-reflexive candidate offered that no LAN peer needs, and, where the name
 *   resolves but the network drops the packets, the offer held back for seconds while werift
 *   retries. The guard takes that server away: host candidates only.
 * - **Forged DTLS alerts.** werift ends a DTLS session on any record of the alert type, or of a
 *   type it does not know, from any sender, without authenticating it. One 13-byte datagram from
 *   anywhere on the LAN, to a port the offer names, froze a viewer's video for good
 *   (camera/webrtc-hostile-udp.test.ts). The guard drops such datagrams before werift reads
 *   them. A peer that really goes away is still noticed: its signalling socket closes, ICE
 *   consent lapses, and the relay closes a viewer that stays silent (camera/relay/video-relay.ts).
 */
import type { RTCPeerConnection } from 'werift';

type IceConnection = RTCPeerConnection['iceTransports'][number]['connection'];

/** DTLS record content types werift may read: change_cipher_spec, handshake, application_data. */
const READABLE_RECORDS = new Set([20, 22, 23]);

/**
 * True for a DTLS datagram (first byte 20 to 63, RFC 7983) holding an alert, or a record of a
 * type DTLS 1.2 does not define: the ones werift would take as the end of the session.
 */
export function endsDtlsSession(datagram: Buffer): boolean {
  if (datagram.length === 0 || datagram[0] === undefined || datagram[0] < 20 || datagram[0] > 63) return false;
  for (let at = 0; at + 13 <= datagram.length; at += 13 + datagram.readUInt16BE(at + 11)) {
    if (!READABLE_RECORDS.has(datagram[at] as number)) return true;
  }
  return false;
}

const guarded = new WeakSet<IceConnection>();

function guardConnection(connection: IceConnection): void {
  connection.stunServer = undefined;
  if (guarded.has(connection)) return;
  guarded.add(connection);
  // Every datagram that is not STUN reaches DTLS and SRTP through this one event.
  const deliver = connection.onData.execute;
  connection.onData.execute = (data: Buffer) => {
    if (!endsDtlsSession(data)) deliver(data);
  };
}

export function guardPeer(pc: RTCPeerConnection): void {
  for (const transport of pc.iceTransports) guardConnection(transport.connection);
}
