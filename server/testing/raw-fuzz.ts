/**
 * Byte-level cases for the raw-socket fuzzer (docs/testing.md, "Fuzzing"): request lines,
 * header sets, cookie strings, percent escapes, chunked and truncated bodies, absolute-form
 * targets, WebSocket upgrades and the frames that follow them. Seeded (fuzz.ts `seeded`), so
 * `FUZZ_SEED=<n>` replays a run case for case.
 */
import { parseTarget } from '../http/untrusted-input.ts';
import { fuzzObject, fuzzValue, type Rng } from './fuzz.ts';

export interface RawFuzzContext {
  /** Paths the server serves: most cases aim at a real route so they get past routing. */
  paths: readonly string[];
  /** WebSocket paths of the server. */
  socketPaths: readonly string[];
  /** The owner token: some cases carry it, so that authenticated code is reached too. */
  token: string;
  /** `127.0.0.1:<port>`, the Host a well-formed request carries. */
  host: string;
}

export interface RawCase {
  /** What was generated, for a failure message; replay with the same seed for the bytes. */
  label: string;
  chunks: Buffer[];
  /** From the trusted loopback peer with a loopback Host (else from a stranger's address). */
  local: boolean;
  method: string;
  /** The case aimed at an API path (whose refusals must carry the JSON error body). */
  api: boolean;
}

/** Seeded bytes: crypto's would make a failing case impossible to replay. */
function seededBytes(rng: Rng, n: number): Buffer {
  return Buffer.from(Array.from({ length: n }, () => Math.floor(rng() * 256)));
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const chance = (rng: Rng, p: number) => rng() < p;

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'get', 'G\u0000T', 'PRI', 'X'.repeat(40)];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', 'HTTP/9.9', 'http/1.1', ''];
const ESCAPES = ['%', '%E0%A4%A', '%zz', '%00', '%2F', '%2e%2e', '%C0%AF', '%FF%FE', '%u0041', '%%', '%0d%0a', '%E2%80%AE'];
const BAD_TARGETS = [
  'http://[/ws', 'http://[::1/ws', 'https://a b/', 'http://user:pw@127.0.0.1/api/state', '*', '127.0.0.1:80', '',
  '//evil.example/ws', '/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', 'ws://127.0.0.1/ws', 'javascript:alert(1)',
  `/${'a'.repeat(9000)}`, '/api/\u00e9t\u00e9', '/\u0000', '/api/state#frag', '?x=1',
];
const BAD_HOSTS = ['[::1', '[zz]', 'a b', 'host:99999', 'host:abc', ':80', '', 'attacker.example', 'robot.local', '10.0.0.9', 'x'.repeat(300), 'a\tb'];
const ORIGINS = ['null', 'http://[', 'http://attacker.example', 'file://', 'x'.repeat(3000), '\u00ff\u00fe'];
const COOKIE_VALUES = ['%E0%A4%A', '', '"', '""', '"abc"', 'a b', '%zz', '\u00e9', ';', '=', 'x'.repeat(5000), 'abc_DEF-123'];

/** A percent-escape soup: valid, invalid and truncated escapes among plain characters. */
function escapes(rng: Rng): string {
  return Array.from({ length: 1 + Math.floor(rng() * 4) }, () => (chance(rng, 0.6) ? pick(rng, ESCAPES) : pick(rng, ['a', 'Z', '9', '-', '.', '~', '+', ' ']))).join('');
}

function target(rng: Rng, ctx: RawFuzzContext, path: string): string {
  const roll = rng();
  if (roll < 0.15) return pick(rng, BAD_TARGETS);
  if (roll < 0.25) return `http://${ctx.host}${path}`;
  const query: string[] = [];
  if (chance(rng, 0.3)) query.push(`token=${chance(rng, 0.5) ? ctx.token : escapes(rng)}`);
  if (chance(rng, 0.3)) query.push(`${escapes(rng)}=${escapes(rng)}`);
  if (chance(rng, 0.1)) query.push('a[b][c]=1&a=2&__proto__[polluted]=1');
  const base = chance(rng, 0.2) ? `${path}/${escapes(rng)}` : path;
  return query.length ? `${base}?${query.join('&')}` : base;
}

function cookieHeader(rng: Rng): string {
  const count = chance(rng, 0.1) ? 200 + Math.floor(rng() * 300) : Math.floor(rng() * 6);
  const pairs: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = chance(rng, 0.3) ? 'cockpit_session' : chance(rng, 0.1) ? escapes(rng) : `c${i}`;
    const value = chance(rng, 0.5) ? pick(rng, COOKIE_VALUES) : escapes(rng);
    pairs.push(chance(rng, 0.05) ? name : `${name}=${value}`);
  }
  return pairs.join(pick(rng, ['; ', ';', ' ;; ', ',']));
}

function authorization(rng: Rng, token: string): string {
  return pick(rng, [`Bearer ${token}`, `Bearer ${token}`, 'Bearer', 'Bearer ', `bearer   ${token}  `, `Basic ${token}`, `Bearer ${'a'.repeat(10_000)}`, 'Bearer \u00e9\u00e9', `Bearer ${escapes(rng)}`, 'Negotiate', '']);
}

function body(rng: Rng): string {
  return pick(rng, [
    () => JSON.stringify(fuzzObject(rng)),
    () => JSON.stringify(fuzzValue(rng)),
    () => '{"yaw": 10, "pitch"',
    () => seededBytes(rng, 1 + Math.floor(rng() * 200)).toString('latin1'),
    () => '',
  ])();
}

/** Content-Length, chunked framing, or a lie about either. */
function framedBody(rng: Rng, text: string): { headers: string[]; payload: string } {
  const length = Buffer.byteLength(text, 'latin1');
  const roll = rng();
  if (roll < 0.45) return { headers: [`Content-Length: ${length}`], payload: text };
  if (roll < 0.55) return { headers: [`Content-Length: ${length + 1 + Math.floor(rng() * 1000)}`], payload: text }; // truncated
  if (roll < 0.6) return { headers: [pick(rng, ['Content-Length: -1', 'Content-Length: abc', 'Content-Length: 99999999999999999999', `Content-Length: ${length}, ${length + 1}`])], payload: text };
  if (roll < 0.65) return { headers: [`Content-Length: ${length}`, `Content-Length: ${length + 3}`], payload: text };
  if (roll < 0.85) {
    const chunks = chance(rng, 0.7) ? `${length.toString(16)}\r\n${text}\r\n0\r\n\r\n` : pick(rng, [`zz\r\n${text}\r\n0\r\n\r\n`, `${(length + 10).toString(16)}\r\n${text}`, `ffffffffffffffff\r\n${text}\r\n`, `${length.toString(16)};ext=1\r\n${text}\r\n0\r\nTrailer: x\r\n\r\n`]);
    return { headers: ['Transfer-Encoding: chunked', ...(chance(rng, 0.2) ? [`Content-Length: ${length}`] : [])], payload: chunks };
  }
  return { headers: [], payload: chance(rng, 0.5) ? text : '' };
}

/** A masked client frame; `options` break one rule at a time. */
function frame(rng: Rng, opcode: number, payload: Buffer, options: { fin?: boolean; masked?: boolean; rsv?: number; lengthLie?: bigint } = {}): Buffer {
  const fin = options.fin ?? true;
  const masked = options.masked ?? true;
  const head: number[] = [(fin ? 0x80 : 0) | ((options.rsv ?? 0) << 4) | opcode];
  const length = options.lengthLie ?? BigInt(payload.length);
  const maskBit = masked ? 0x80 : 0;
  if (length < 126n) head.push(maskBit | Number(length));
  else if (length < 65536n) head.push(maskBit | 126, Number(length >> 8n) & 0xff, Number(length) & 0xff);
  else {
    head.push(maskBit | 127);
    for (let shift = 56n; shift >= 0n; shift -= 8n) head.push(Number((length >> shift) & 0xffn));
  }
  if (!masked) return Buffer.concat([Buffer.from(head), payload]);
  const mask = Buffer.from([Math.floor(rng() * 256), Math.floor(rng() * 256), Math.floor(rng() * 256), Math.floor(rng() * 256)]);
  const data = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
  return Buffer.concat([Buffer.from(head), mask, data]);
}

const SOCKET_MESSAGES = ['joystick', 'look', 'ping', 'chat', 'message', 'audio', 'stop', 'hello', 'subscribe'];

/** Frames after an upgrade: mostly well formed, each of the rest breaks one rule of RFC 6455. */
function frames(rng: Rng): { label: string; bytes: Buffer[] } {
  const out: Buffer[] = [];
  const labels: string[] = [];
  for (let i = 0, n = 1 + Math.floor(rng() * 4); i < n; i += 1) {
    const json = Buffer.from(JSON.stringify({ type: pick(rng, SOCKET_MESSAGES), ...fuzzObject(rng) }));
    const kind = pick(rng, ['text', 'text', 'text', 'binary', 'oversized', 'bad-utf8', 'unmasked', 'fragmented-control', 'unknown-opcode', 'rsv', 'close', 'big-ping', 'truncated', 'continuation-first']);
    labels.push(kind);
    switch (kind) {
      case 'text':
        out.push(frame(rng, 0x1, json));
        break;
      case 'binary':
        out.push(frame(rng, 0x2, seededBytes(rng, Math.floor(rng() * 2000))));
        break;
      case 'oversized':
        out.push(frame(rng, 0x1, json, { lengthLie: pick(rng, [2n ** 63n - 1n, 2n ** 32n, 70_000n, 10_000_000n]) }));
        break;
      case 'bad-utf8':
        out.push(frame(rng, 0x1, Buffer.from([0x7b, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0x7d])));
        break;
      case 'unmasked':
        out.push(frame(rng, 0x1, json, { masked: false }));
        break;
      case 'fragmented-control':
        out.push(frame(rng, 0x9, Buffer.from('ping'), { fin: false }));
        break;
      case 'unknown-opcode':
        out.push(frame(rng, pick(rng, [0x3, 0x4, 0x5, 0x6, 0x7, 0xb, 0xc, 0xd, 0xe, 0xf]), json));
        break;
      case 'rsv':
        out.push(frame(rng, 0x1, json, { rsv: 1 + Math.floor(rng() * 7) }));
        break;
      case 'close':
        out.push(frame(rng, 0x8, Buffer.concat([Buffer.from([Math.floor(rng() * 256), Math.floor(rng() * 256)]), Buffer.from(pick(rng, ['', 'bye', '\u00ff'.repeat(130)]), 'latin1')])));
        break;
      case 'big-ping':
        out.push(frame(rng, 0x9, seededBytes(rng, 126 + Math.floor(rng() * 200))));
        break;
      case 'truncated':
        out.push(frame(rng, 0x1, json).subarray(0, 3 + Math.floor(rng() * 5)));
        break;
      default:
        out.push(frame(rng, 0x0, json));
    }
  }
  return { label: labels.join(','), bytes: out };
}

function upgradeHeaders(rng: Rng): string[] {
  const key = chance(rng, 0.85) ? seededBytes(rng, 16).toString('base64') : pick(rng, ['', 'not-base64!', 'AAAA', 'x'.repeat(200)]);
  const headers = [pick(rng, ['Connection: Upgrade', 'Connection: keep-alive, Upgrade', 'Connection: close']), pick(rng, ['Upgrade: websocket', 'Upgrade: WebSocket', 'Upgrade: h2c', 'Upgrade: websocket, websocket'])];
  if (key !== '' || chance(rng, 0.5)) headers.push(`Sec-WebSocket-Key: ${key}`);
  headers.push(`Sec-WebSocket-Version: ${pick(rng, ['13', '13', '13', '8', '', 'abc'])}`);
  if (chance(rng, 0.1)) headers.push('Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits');
  if (chance(rng, 0.1)) headers.push(`Sec-WebSocket-Protocol: ${escapes(rng)}`);
  return headers;
}

/** Splits bytes at random points, so the parsers see requests arrive in pieces. */
function split(rng: Rng, bytes: Buffer): Buffer[] {
  if (chance(rng, 0.7)) return [bytes];
  const out: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const size = 1 + Math.floor(rng() * Math.max(1, bytes.length / 3));
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

export function rawCase(rng: Rng, ctx: RawFuzzContext): RawCase {
  const upgrade = chance(rng, 0.35);
  const local = chance(rng, 0.15);
  const path = upgrade && chance(rng, 0.85) ? pick(rng, ctx.socketPaths) : pick(rng, ctx.paths);
  const method = upgrade ? (chance(rng, 0.9) ? 'GET' : pick(rng, METHODS)) : pick(rng, METHODS);
  const requestTarget = target(rng, ctx, path);
  const version = pick(rng, VERSIONS);
  const headers: string[] = [];
  // A stranger's address with a loopback Host, or the loopback peer whose Host is loopback too:
  // the loopback peer with a foreign Host would meet the brute-force delays on every case.
  const host = local ? ctx.host : chance(rng, 0.75) ? ctx.host : pick(rng, BAD_HOSTS);
  if (!chance(rng, 0.05)) headers.push(`Host: ${host}`);
  if (chance(rng, 0.05)) headers.push(`Host: ${pick(rng, BAD_HOSTS)}`);
  if (chance(rng, 0.5)) headers.push(`Cookie: ${cookieHeader(rng)}`);
  if (chance(rng, 0.1)) headers.push(`Cookie: ${cookieHeader(rng)}`);
  if (chance(rng, 0.4)) headers.push(`Authorization: ${authorization(rng, ctx.token)}`);
  if (chance(rng, 0.3)) headers.push(`Origin: ${chance(rng, 0.5) ? `http://${ctx.host}` : pick(rng, ORIGINS)}`);
  if (chance(rng, 0.05)) headers.push(`X-Forwarded-For: ${escapes(rng)}`);
  if (chance(rng, 0.05)) headers.push(...Array.from({ length: 250 }, (_, i) => `X-Many-${i}: ${i}`));
  if (chance(rng, 0.05)) headers.push(`X-Long: ${'v'.repeat(pick(rng, [8000, 17_000]))}`);
  if (chance(rng, 0.05)) headers.push(pick(rng, ['NoColonHere', ' folded: value', 'Bad Name: x', 'X-Ctl: a\u0001b', 'X-Utf8: \u00e9\u00e9', ': empty-name']));
  if (upgrade) headers.push(...upgradeHeaders(rng));
  let payload = '';
  let label = `${method} ${requestTarget.slice(0, 80)} ${version}`;
  if (!upgrade && method !== 'GET' && method !== 'HEAD') {
    headers.push(`Content-Type: ${pick(rng, ['application/json', 'application/json', 'text/plain', 'multipart/form-data; boundary=x', ''])}`);
    const framed = framedBody(rng, body(rng));
    headers.push(...framed.headers);
    payload = framed.payload;
    label += ` ${framed.headers.join(',')}`;
  }
  const line = version === '' ? `${method} ${requestTarget}` : `${method} ${requestTarget} ${version}`;
  const eol = chance(rng, 0.03) ? '\n' : '\r\n';
  const head = Buffer.from(`${line}${eol}${headers.join(eol)}${eol}${eol}`, 'latin1');
  const chunks = split(rng, Buffer.concat([head, Buffer.from(payload, 'latin1')]));
  if (upgrade) {
    const following = frames(rng);
    chunks.push(...following.bytes);
    label += ` upgrade[${following.label}]`;
  }
  const parsed = parseTarget(requestTarget);
  const api = parsed.ok && parsed.value.pathname.startsWith('/api/');
  return { label: `${local ? 'local ' : ''}${label}`, chunks, local, method, api };
}
