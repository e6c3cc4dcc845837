/**
 * Total parsers for the parts of a request a stranger controls: the request target, the Host
 * header and the session cookie. Each returns a value or a reason and never throws, so one
 * client's bytes can only ever earn that client a 400 (docs/security.md, "Untrusted input").
 * Koa and the WebSocket upgrade both read requests through these, so HTTP and sockets agree.
 */
import { SESSION_COOKIE } from './caller.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(reason: string): Parsed<T> => ({ ok: false, reason });

export interface Target {
  pathname: string;
  query: URLSearchParams;
}

/** Past this a target is not one any page of this server produces. */
export const MAX_TARGET = 8192;

/**
 * The path and query of a request line's target: origin-form (`/path?q`) or absolute-form
 * (`http://host/path`, which proxies send). Authority-form and `*` name no resource here.
 */
export function parseTarget(raw: string | undefined): Parsed<Target> {
  if (raw === undefined || raw === '') return bad('empty request target');
  if (raw.length > MAX_TARGET) return bad('request target too long');
  if (!raw.startsWith('/') && !/^https?:\/\//i.test(raw)) return bad('request target must be a path');
  let url: URL;
  try {
    // Origin-form is appended to a placeholder origin, so `//x` stays a path and never names a host.
    url = new URL(raw.startsWith('/') ? `http://target.invalid${raw}` : raw);
  } catch {
    return bad('malformed request target');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad('request target must be a path');
  return ok({ pathname: url.pathname, query: url.searchParams });
}

/** decodeURIComponent that answers undefined for malformed escapes instead of throwing. */
export function decodeOrUndefined(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Session ids are base64url of random bytes (server/auth/secret-id.ts); nothing else can match one. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * The session cookie's value, from however many Cookie headers and pairs the client sent. The
 * first pair with the name wins (browsers send the most specific path first). Other cookies on
 * the same host belong to other programs: their contents are never looked at, so they cannot make
 * a request fail. A session cookie that cannot be one of ours is refused rather than guessed at.
 */
export function readSessionCookie(header: string | string[] | undefined): Parsed<string | undefined> {
  const headers = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const line of headers) {
    for (const pair of line.split(';')) {
      const eq = pair.indexOf('=');
      if (eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
      let value = pair.slice(eq + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      // An empty value is what logout leaves behind: no session, not an attack.
      if (value === '') return ok(undefined);
      return SESSION_ID.test(value) ? ok(value) : bad(`malformed ${SESSION_COOKIE} cookie`);
    }
  }
  return ok(undefined);
}

export interface HostParts {
  /** Lower case, IPv6 brackets and a trailing dot removed. */
  name: string;
  port: number | undefined;
}

const REG_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/;
const IPV6_LITERAL = /^[0-9a-f:.]+$/;

/**
 * The last Host header read and its answer. A request reads its Host twice (the security
 * middleware's check and the allowlist; a socket upgrade once more) and a client's requests all
 * carry the same one, so one entry answers nearly every read. The answers are frozen: callers
 * share them.
 */
let lastHost: { header: string; parsed: Parsed<HostParts> } | undefined;

/** The Host header as RFC 9110 allows it: a name or address, and an optional port. */
export function parseHost(header: string | undefined): Parsed<HostParts> {
  if (header === undefined) return readHost(header);
  if (lastHost?.header !== header) {
    const parsed = readHost(header);
    lastHost = { header, parsed: Object.freeze(parsed.ok ? { ok: true, value: Object.freeze(parsed.value) } : parsed) };
  }
  return lastHost.parsed;
}

function readHost(header: string | undefined): Parsed<HostParts> {
  if (header === undefined || header === '') return bad('missing Host header');
  const text = header.trim().toLowerCase();
  if (text.length > 260) return bad('Host header too long');
  let name: string;
  let rest: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return bad('malformed Host header');
    name = text.slice(1, close);
    rest = text.slice(close + 1);
    if (!IPV6_LITERAL.test(name)) return bad('malformed Host header');
  } else {
    const colon = text.indexOf(':');
    name = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? '' : text.slice(colon);
    if (!REG_NAME.test(name)) return bad('malformed Host header');
    name = name.replace(/\.$/, '');
  }
  if (rest === '') return ok({ name, port: undefined });
  const port = /^:(\d{1,5})$/.exec(rest);
  if (!port || Number(port[1]) > 65535) return bad('malformed Host header');
  return ok({ name, port: Number(port[1]) });
}

const WS_KEY = /^[+/0-9A-Za-z]{22}==$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A comma list of distinct RFC 7230 tokens; the cockpit names no subprotocol, but may be offered some. */
function validProtocols(header: string | string[]): boolean {
  if (typeof header !== 'string') return false;
  const names = header.split(',').map((p) => p.trim());
  return names.every((p) => TOKEN.test(p)) && new Set(names).size === names.length;
}

/**
 * The handshake headers RFC 6455 requires of a client. The ws library checks them too, but
 * answers a failure in plain text; checking first gives the same JSON refusal as everywhere else.
 */
export function checkUpgradeHeaders(req: { method?: string | undefined; headers: Record<string, string | string[] | undefined> }): Parsed<true> {
  if (req.method !== 'GET') return bad('a socket is opened with GET');
  const upgrade = req.headers['upgrade'];
  if (typeof upgrade !== 'string' || upgrade.trim().toLowerCase() !== 'websocket') return bad('only WebSocket upgrades are served');
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !WS_KEY.test(key.trim())) return bad('missing or malformed Sec-WebSocket-Key');
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') return bad('unsupported Sec-WebSocket-Version (13 is)');
  const protocols = req.headers['sec-websocket-protocol'];
  if (protocols !== undefined && !validProtocols(protocols)) return bad('malformed Sec-WebSocket-Protocol');
  return ok(true);
}
