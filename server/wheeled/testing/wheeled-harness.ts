/**
 * Starts a real the wheeled server on 127.0.0.1:0 with the simulated base and a fresh data folder for
 * integration tests, optionally with TLS and a fake OpenAI-compatible model, and hands out the
 * credentials a test needs: the owner token, a service token, a passkey-session JWT.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startFakeOpenAi, type FakeOpenAi } from '../../agent/providers/testing/fake-openai.ts';
import type { Script } from '../../agent/providers/testing/fake-script.ts';
import { createAccess } from '../../auth/access.ts';
import type { Clock } from '../../clock.ts';
import { loadConfig } from '../../config.ts';
import { silentLog } from '../../log.ts';
import type { SpeechEngine } from '../../speech/engine.ts';
import { startWheeledServer, type WheeledServer, type WheeledServerOptions } from '../index.ts';

export const OWNER_TOKEN = 'wheeled-owner-token-0123456789abcdef';

export interface WheeledHarness {
  server: WheeledServer;
  url: string;
  wsUrl: string;
  dataDir: string;
  fake: FakeOpenAi | undefined;
  /** A service token for subject "script". */
  serviceToken: string;
  /** A JWT of a fresh passkey session. */
  sessionJwt(ttlSeconds?: number): Promise<string>;
  /** fetch with a bearer (TLS: trusting only the harness's CA). */
  call(
    path: string,
    init?: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; json: Record<string, unknown>; text: string; headers: Headers }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  tls?: boolean;
  /** A fake model with this script (true: the default script); absent: no model configured. */
  model?: Script | true;
  env?: Record<string, string>;
  tuning?: WheeledServerOptions['tuning'];
  speech?: SpeechEngine;
  backend?: WheeledServerOptions['backend'];
  frameDelayMs?: number;
  /** The access model's clock (sessions, rate limit, throttle), for tests that move its time. */
  clock?: Clock;
}

export async function startWheeledHarness(options: HarnessOptions = {}): Promise<WheeledHarness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wheeled-test-'));
  const fake = options.model
    ? await startFakeOpenAi({
        ...(options.model === true ? {} : { script: options.model }),
        ...(options.frameDelayMs ? { frameDelayMs: options.frameDelayMs } : {}),
      })
    : undefined;
  const config = loadConfig({
    env: {
      ROBOT_B_PORT: '0',
      ROBOT_B_TLS: options.tls ? '1' : '0',
      ...(fake ? { ROBOT_MODEL_PROVIDER: 'openai', ROBOT_MODEL_BASE_URL: fake.url, ROBOT_MODEL: 'fake-model' } : {}),
      ...options.env,
    },
    flags: { host: '127.0.0.1', dataDir },
  });
  const server = await startWheeledServer({
    config,
    log: silentLog,
    ownerToken: OWNER_TOKEN,
    ...(options.tuning ? { tuning: options.tuning } : {}),
    ...(options.speech ? { speech: options.speech } : {}),
    ...(options.backend ? { backend: options.backend } : {}),
    ...(options.clock
      ? { access: await createAccess({ config, log: silentLog, ownerToken: OWNER_TOKEN, clock: options.clock }) }
      : {}),
  });
  const minted = await server.mintServiceToken({ sub: 'script', name: 'tests', ttlSeconds: 3600 });
  const call: WheeledHarness['call'] = async (path, init = {}) => {
    const token = init.token === undefined ? OWNER_TOKEN : init.token;
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    };
    const body =
      init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const res = server.secure
      ? await trustedFetch(`${server.url}${path}`, server.caCertPem as string, {
          method: init.method ?? 'GET',
          headers,
          body,
        })
      : await fetch(`${server.url}${path}`, { method: init.method ?? 'GET', headers, body });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Pages and images are not JSON.
    }
    return { status: res.status, json, text, headers: res.headers };
  };
  return {
    server,
    url: server.url,
    wsUrl: server.url.replace(/^http/, 'ws'),
    dataDir,
    fake,
    serviceToken: minted.token,
    async sessionJwt(ttlSeconds = 600) {
      const session = await server.access.sessions.create({ credentialId: 'test-credential', ttlSeconds });
      return (
        await server.tokens.mintSessionToken({
          sessionKey: session.key,
          credentialId: 'test-credential',
          sessionExpiresAt: session.expiresAt,
        })
      ).token;
    },
    call,
    async close() {
      await server.stop();
      await fake?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An HTTPS request that trusts only `ca` (as a phone that installed the robot's CA). */
export function trustedFetch(
  url: string,
  ca: string,
  init: { method: string; headers: Record<string, string>; body?: string | undefined },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: init.method, headers: init.headers, ca, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers }));
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

export interface OpenedSocket {
  ws: WebSocket;
  frames: Array<Record<string, unknown>>;
  /** Resolves with the first frame (at or after `from`) the predicate accepts. */
  next(predicate: (frame: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  closed: Promise<number>;
}

/** Opens a socket and collects its JSON frames; rejects if it closes before opening. */
export function openSocket(url: string, options: { ca?: string } = {}): Promise<OpenedSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options.ca ? { ca: options.ca } : {});
    const frames: Array<Record<string, unknown>> = [];
    const waiters = new Set<() => void>();
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
      for (const w of waiters) w();
    });
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`socket closed with ${code} before opening`)));
    ws.once('open', () =>
      resolve({
        ws,
        frames,
        closed,
        next(predicate, timeoutMs = 5000) {
          return new Promise((res, rej) => {
            const check = () => {
              const found = frames.find(predicate);
              if (!found) return;
              waiters.delete(check);
              clearTimeout(timer);
              res(found);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rej(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames).slice(0, 600)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
      }),
    );
  });
}

/** The close code of a socket the server refuses (4401, 4404...). */
export function closeCode(
  url: string,
  options: { ca?: string; headers?: Record<string, string> } = {},
): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, {
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });
    let opened = false;
    ws.on('open', () => {
      opened = true;
      setTimeout(() => {
        if (ws.readyState === WebSocket.OPEN) {
          ws.close();
          resolve('open');
        }
      }, 150);
    });
    ws.on('close', (code) => resolve(opened && (code === 1000 || code === 1005) ? 'open' : code));
    ws.on('error', () => resolve(-1));
  });
}
