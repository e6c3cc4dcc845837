/**
 * The loopback rule (docs/contract.md, "Loopback rule"). A tunnel or reverse proxy
 * on the robot also connects from 127.0.0.1, so a loopback peer proves nothing on its own: the
 * Host header must name the loopback too (which also defeats DNS rebinding, where a foreign name
 * resolves to 127.0.0.1), and no proxy may have added a client-address header.
 */

export interface LoopbackInput {
  /** The socket's remote address. */
  peer: string | undefined;
  /** The Host header. */
  host: string | undefined;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

const LOOPBACK_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Headers a proxy adds to name the real client; their presence means "not from this host". */
const PROXY_HEADERS = new Set(['x-forwarded-for', 'forwarded', 'x-real-ip', 'cf-connecting-ip', 'cf-ray']);

/** True only when all three conditions of the loopback rule hold. */
export function isLocalRequest(input: LoopbackInput): boolean {
  return isLoopbackPeer(input.peer) && isLoopbackHost(input.host) && !hasProxyHeader(input.headers);
}

function isLoopbackPeer(peer: string | undefined): boolean {
  return peer !== undefined && LOOPBACK_PEERS.has(peer.toLowerCase());
}

/** localhost, 127.0.0.1 or [::1], each with or without a numeric port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const match = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  return match !== null && LOOPBACK_HOSTS.has(match[1] as string);
}

function hasProxyHeader(headers: LoopbackInput['headers']): boolean {
  // A loop, not Object.entries: this runs on every request and should allocate nothing.
  for (const name in headers) {
    if (headers[name] !== undefined && PROXY_HEADERS.has(name.toLowerCase())) return true;
  }
  return false;
}
