/**
 * Helpers for the simulator's own integration tests: real HTTP and WebSocket against a
 * simulator on a free loopback port.
 */
import WebSocket from 'ws';
import { eventually, testWait } from '../testing/eventually.ts';
import type { SimDaemon } from './index.ts';

export interface ApiReply {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

export async function api(sim: SimDaemon, method: string, path: string, body?: unknown): Promise<ApiReply> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const res = await fetch(`${sim.url}${path}`, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json };
}

/** Shorthand for a JSON answer that must be 200. */
export async function ok<T = Record<string, unknown>>(
  sim: SimDaemon,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const reply = await api(sim, method, path, body);
  if (reply.status !== 200) throw new Error(`${method} ${path} → ${reply.status} ${reply.text}`);
  return reply.json as T;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a truthy value; generous by default for a loaded machine. */
type Falsy = null | undefined | false | 0 | '';

export function waitFor<T>(
  check: () => Promise<T | Falsy> | T | Falsy,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  return eventually(check, { timeoutMs: testWait(timeoutMs), intervalMs: everyMs });
}

export interface OpenSocket {
  ws: WebSocket;
  messages: unknown[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a WebSocket and records every JSON message; rejects if the upgrade is refused. */
export function openWs(sim: SimDaemon, path: string): Promise<OpenSocket> {
  const ws = new WebSocket(`${sim.url.replace('http', 'ws')}${path}`);
  const messages: unknown[] = [];
  ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as unknown));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, closed }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode ?? 0}`)));
    ws.once('error', reject);
  });
}

/** Type skeleton of a JSON value: same keys in the same order and same kinds of values. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0]), value.length];
  if (typeof value === 'object') return Object.entries(value).map(([k, v]) => [k, shapeOf(v)]);
  return typeof value;
}
