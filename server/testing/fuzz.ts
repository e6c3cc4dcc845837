/**
 * Generators for fuzzing the cockpit's routes and socket messages: wrong types, missing and
 * extra fields, huge and unicode strings, prototype-pollution keys, odd methods and headers.
 * Seeded, so a failing case can be replayed.
 */

export type Rng = () => number;

/** mulberry32: small, fast and good enough to spread cases. */
export function seeded(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

/** Field names the routes read, so generated bodies reach past "unknown field" checks. */
const FIELDS = [
  'yaw', 'pitch', 'roll', 'x', 'y', 'z', 'antennas', 'body_yaw', 'duration', 'right', 'left', 'name', 'mode',
  'level', 'on', 'action', 'text', 'prompt', 'enabled', 'ttl', 'label', 'enrolToken', 'pairingCode',
  'challengeId', 'response', 'platformUrl', 'deviceId', 'token', 'channel', 'provider', 'baseUrl', 'model',
  'key', 'subscription', 'endpoint', 'linear', 'angular', 'stop', 'type',
];

const STRINGS = [
  '', ' ', 'a', 'look', 'enabled', 'start', 'abort', 'laughing1', '../../etc/passwd', '%00', '\u0000', '😀🤖',
  'ｙａｗ', '\u202e', 'null', 'NaN', '1e999', '<script>alert(1)</script>', "'; DROP TABLE x;--",
];

export function fuzzValue(rng: Rng, depth = 0): unknown {
  switch (Math.floor(rng() * 11)) {
    case 0:
      return null;
    case 1:
      return rng() < 0.5;
    case 2:
      return pick(rng, [0, -1, 1, 0.5, 1e308, -1e308, 2 ** 53 + 1, 45, 200, -200, 101]);
    case 3:
      return pick(rng, STRINGS);
    case 4:
      return 'x'.repeat(Math.floor(rng() * 20_000));
    case 5:
      return depth < 3 ? Array.from({ length: Math.floor(rng() * 4) }, () => fuzzValue(rng, depth + 1)) : [];
    case 6:
      return depth < 3 ? fuzzObject(rng, depth + 1) : {};
    case 7:
      return pick(rng, [[10, -10], [1, 2, 3], ['a', 'b']]);
    case 8:
      return String.fromCodePoint(...Array.from({ length: 8 }, () => Math.floor(rng() * 0x10ffff) & 0xd7ff));
    default:
      return Math.floor(rng() * 2000) - 1000;
  }
}

export function fuzzObject(rng: Rng, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const count = Math.floor(rng() * 5);
  for (let i = 0; i < count; i += 1) out[rng() < 0.85 ? pick(rng, FIELDS) : `extra${i}`] = fuzzValue(rng, depth);
  return out;
}

export interface FuzzRequest {
  method: string;
  body: string | undefined;
  headers: Record<string, string>;
}

/** A request for a route: usually its own method with a JSON body, sometimes anything odd. */
export function fuzzRequest(rng: Rng, method: string): FuzzRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const roll = rng();
  let body: string | undefined;
  if (roll < 0.55) body = JSON.stringify(fuzzObject(rng));
  else if (roll < 0.65) body = JSON.stringify(fuzzValue(rng));
  else if (roll < 0.72) body = pick(rng, ['{', '{"a":', 'not json', '[1,2', '\u0000\u0001', '{"__proto__":{"polluted":1}}']);
  else if (roll < 0.76) body = JSON.stringify({ text: 'y'.repeat(70_000) });
  else if (roll < 0.8) body = '{"constructor":{"prototype":{"polluted":1}},"yaw":10}';
  if (rng() < 0.1) headers['content-type'] = pick(rng, ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '']);
  if (rng() < 0.05) headers['x-forwarded-for'] = '203.0.113.7';
  const odd = rng() < 0.1;
  return { method: odd ? pick(rng, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) : method, body, headers };
}

/** A message for the /ws socket: joystick frames with wrong types, unknown types, garbage. */
export function fuzzSocketMessage(rng: Rng): string | Buffer {
  const roll = rng();
  if (roll < 0.1) return Buffer.from(Array.from({ length: Math.floor(rng() * 64) }, () => Math.floor(rng() * 256)));
  if (roll < 0.2) return pick(rng, ['', '{', 'null', '[]', '"joystick"', '{"type":null}']);
  if (roll < 0.25) return JSON.stringify({ type: 'joystick', yaw: 'x'.repeat(10_000) });
  const type = pick(rng, ['joystick', 'ping', 'camera', 'unknown', 'chat', 'control', 'stop', '__proto__']);
  return JSON.stringify({ type, ...fuzzObject(rng) });
}
