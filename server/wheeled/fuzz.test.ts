/**
 * On the wheeled server: generated requests to every route of the wheeled server's table with every kind of
 * credential, and generated messages on /ws/chat and /ws/voice. No 500, every /api error is JSON
 * with a catalogue code, nothing is polluted, health answers throughout, and the server never
 * drops a socket except as its protocol says (a voice session ends with 1000 after a stop).
 * FUZZ_SEED replays a run.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ERROR_CODES } from '../errors.ts';
import type { SpeechEngine } from '../speech/engine.ts';
import { remoteRequest } from '../testing/cockpit-harness.ts';
import { fuzzObject, fuzzRequest, fuzzSocketMessage, fuzzValue, seeded, type Rng } from '../testing/fuzz.ts';
import { OWNER_TOKEN, startWheeledHarness, type WheeledHarness } from './testing/wheeled-harness.ts';
import { pcm16Wav } from '../speech/wav.ts';
import { OFFLINE_RATE } from './voice/speech-out.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261122);
const PER_ROUTE = 40;
/** The hub refuses frames over 64 KiB with 1009 by design; generated frames stay under it. */
const FRAME_LIMIT = 60 * 1024;

/** A tenth of a second of silence: the voice path runs end to end without espeak-ng's seconds. */
const quietSpeech: SpeechEngine = {
  name: 'quiet',
  synthesize: (_text, signal) =>
    signal.aborted
      ? Promise.reject(new Error('aborted'))
      : Promise.resolve({ wav: pcm16Wav(Buffer.alloc(OFFLINE_RATE / 5), OFFLINE_RATE), seconds: 0.1 }),
};

let h: WheeledHarness;
beforeAll(async () => {
  // The rate limit is lifted so generated control requests reach the validation behind it.
  h = await startWheeledHarness({ model: true, speech: quietSpeech, env: { ROBOT_RATE_LIMIT: '1000' } });
}, 30_000);
afterAll(() => h.close(), 30_000);

const known = new Set<string>([...Object.keys(ERROR_CODES), 'INTERNAL']);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const size = (m: string | Buffer) => (typeof m === 'string' ? Buffer.byteLength(m) : m.length);

async function healthy(): Promise<boolean> {
  const res = await fetch(`${h.url}/api/health`);
  return res.status === 200 && ((await res.json()) as { robot?: unknown }).robot === 'wheeled';
}

/** Chat-socket shapes of B on top of the shared generator: chat text, drive frames with wrong types. */
function chatMessage(rng: Rng): string | Buffer {
  const roll = rng();
  if (roll < 0.3) return fuzzSocketMessage(rng);
  if (roll < 0.45) return JSON.stringify({ type: 'chat', text: fuzzValue(rng) });
  if (roll < 0.5) return JSON.stringify(fuzzValue(rng));
  if (roll < 0.75)
    return JSON.stringify({
      type: 'control',
      linear: fuzzValue(rng),
      angular: fuzzValue(rng),
      duration: fuzzValue(rng),
      ...fuzzObject(rng),
    });
  if (roll < 0.85) return JSON.stringify({ stop: fuzzValue(rng), type: pick(rng, ['stop', 'control', undefined]) });
  if (roll < 0.9) return JSON.stringify({ type: 'ping', time: fuzzValue(rng) });
  return Buffer.from(Array.from({ length: Math.floor(rng() * 512) }, () => Math.floor(rng() * 256)));
}

/** Voice-socket shapes: PCM16 that is not (odd lengths, noise), typed text, unknown types. */
function voiceMessage(rng: Rng): string | Buffer {
  const roll = rng();
  if (roll < 0.45) return Buffer.from(Array.from({ length: Math.floor(rng() * 9000) }, () => Math.floor(rng() * 256)));
  if (roll < 0.5) return Buffer.alloc(0);
  if (roll < 0.7) return JSON.stringify({ type: 'text', text: fuzzValue(rng), ...fuzzObject(rng) });
  if (roll < 0.78) return pick(rng, ['', '{', 'null', '[]', '"stop"', '{"type":["stop"]}', '{"type":{"stop":1}}']);
  if (roll < 0.8) return JSON.stringify({ type: 'stop', ...fuzzObject(rng) });
  return fuzzSocketMessage(rng);
}

interface Tally {
  sent: number;
  problems: string[];
}

/**
 * Sends `count` messages on a socket, opening a new one when the server ends a voice session.
 * A close is a problem unless it is 1000 after a stop the test sent.
 */
async function fuzzSocket(path: string, token: string, count: number, next: () => string | Buffer): Promise<Tally> {
  const tally: Tally = { sent: 0, problems: [] };
  while (tally.sent < count) {
    const ws = new WebSocket(`${h.wsUrl}${path}?token=${encodeURIComponent(token)}`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    let stopSent = false;
    let closedWith: number | undefined;
    ws.on('close', (code) => (closedWith = code));
    while (tally.sent < count && closedWith === undefined) {
      const message = next();
      if (size(message) > FRAME_LIMIT) continue;
      if (typeof message === 'string' && /"type":"stop"/.test(message)) stopSent = true;
      ws.send(message);
      tally.sent += 1;
      // Let the server read between bursts, as a client on a network would.
      if (tally.sent % 25 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    if (closedWith === undefined) {
      // Still open: it must still answer (an unknown type earns an error frame on both paths).
      const answer = await new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve(closedWith === undefined ? 'silent' : `closed ${closedWith}`), 5000);
        ws.on('message', (data, isBinary) => {
          if (isBinary) return;
          const frame = JSON.parse(String(data)) as { type?: unknown; error?: unknown };
          if (frame.type === 'error' && String(frame.error).includes('probe-type')) {
            clearTimeout(timer);
            resolve('answered');
          }
        });
        ws.on('close', (code) => {
          clearTimeout(timer);
          resolve(code === 1000 && stopSent ? 'answered' : `closed ${code}`);
        });
        ws.send(JSON.stringify({ type: 'probe-type' }));
      });
      if (answer !== 'answered') tally.problems.push(`${path} ${answer} after ${tally.sent} messages`);
      ws.close();
    } else if (!(closedWith === 1000 && stopSent)) {
      tally.problems.push(`${path} closed by the server with ${closedWith} after ${tally.sent} messages`);
    }
    if (!(await healthy())) tally.problems.push(`health failed after ${tally.sent} messages on ${path}`);
  }
  return tally;
}

it('survives generated /ws/chat and /ws/voice messages and keeps serving', async () => {
  const rng = seeded(SEED + 1);
  const jwt = await h.sessionJwt();
  const chat = await fuzzSocket('/ws/chat', jwt, 1200, () => chatMessage(rng));
  const scriptChat = await fuzzSocket('/ws/chat', h.serviceToken, 300, () => chatMessage(rng));
  const voice = await fuzzSocket('/ws/voice', OWNER_TOKEN, 500, () => voiceMessage(rng));
  expect([...chat.problems, ...scriptChat.problems, ...voice.problems].slice(0, 20)).toEqual([]);
  expect(chat.sent + scriptChat.sent + voice.sent).toBe(2000);
  expect(await healthy()).toBe(true);
  // A control frame from the fuzz may still run: the base ends it at its duration, or the stop.
  expect((await h.call('/api/control/stop', { method: 'POST' })).status).toBe(200);
}, 60_000);

it(`survives ${PER_ROUTE} generated requests per route of B's table (seed ${SEED})`, async () => {
  const rng = seeded(SEED);
  const problems: string[] = [];
  let sent = 0;
  const jwt = await h.sessionJwt(3600);
  const credentials = [OWNER_TOKEN, h.serviceToken, jwt, 'not-a-token', ''];
  const httpRoutes = h.server.app.routes.filter((r) => r.method !== 'WS');
  expect(httpRoutes.length).toBe(35);
  for (const route of httpRoutes) {
    // A model turn and a model test are network round trips; a few cases reach them.
    const cases = /\/(chat|agent\/test)$/.test(route.path) ? 8 : PER_ROUTE;
    for (let i = 0; i < cases; i += 1) {
      const req = fuzzRequest(rng, route.method);
      const path = route.path
        .replace(':cid', encodeURIComponent(String(fuzzValue(rng))).slice(0, 200))
        .replace(':id', encodeURIComponent(String(fuzzValue(rng))).slice(0, 200))
        .replace('{*path}', pick(rng, ['x%2F..%2Fy', '..%2F..%2Fetc%2Fpasswd', 'assets/%00.js', 'a/b/c', '%E0%A4%A']));
      const roll = rng();
      const token = roll < 0.45 ? OWNER_TOKEN : roll < 0.9 ? pick(rng, credentials) : undefined;
      const res = await remoteRequest(`${h.url}${path}`, {
        method: req.method,
        headers: { ...req.headers, ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) },
        ...(req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD' ? { body: req.body } : {}),
      });
      sent += 1;
      const where = `${req.method} ${path.slice(0, 80)} ${String(req.body).slice(0, 60)}`;
      if (res.status >= 500 && ![502, 503, 504].includes(res.status)) problems.push(`${res.status} ${where}`);
      if (res.status >= 400 && req.method !== 'HEAD' && path.startsWith('/api/')) {
        let code: unknown;
        try {
          code = (JSON.parse(res.body) as { code?: unknown }).code;
        } catch {
          problems.push(`non-JSON ${res.status} ${where}`);
          continue;
        }
        if (!known.has(String(code))) problems.push(`unknown code ${String(code)} ${where}`);
        if (code === 'INTERNAL') problems.push(`INTERNAL ${where}`);
      }
    }
    if (!(await healthy())) problems.push(`health failed after ${route.method} ${route.path}`);
  }
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(problems.slice(0, 20)).toEqual([]);
  expect(sent).toBeGreaterThan(1200);
  // The credentials still work: nothing generated revoked the owner's key or broke the token register.
  expect((await h.call('/api/console/tokens')).status).toBe(200);
}, 90_000);
