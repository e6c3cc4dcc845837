/**
 * Minimal HTTP routing with FastAPI's envelopes (docs/daemon.md, "Conventions"): `{"detail": …}` JSON for
 * handled errors, 404 `{"detail":"Not Found"}`, 405 `{"detail":"Method Not Allowed"}`, 422
 * pydantic lists, and an uncaught exception as 500 text/plain `Internal Server Error`.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { jsonInvalid, ValidationError } from './pydantic.ts';

export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Reply = { status?: number; json: unknown } | { status: number; text: string; contentType: string };

export type Handler = (req: SimRequest) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  /** The path as declared, e.g. `/api/move/recorded-move-datasets/list/{dataset_name:path}`. */
  path: string;
  pattern: RegExp;
  keys: string[];
  /** Needs a running backend: 503 "Backend not running" otherwise (FastAPI's get_backend dependency). */
  backend: boolean;
  /** Body cap in bytes, 413 beyond it; only the sound upload has one (docs/daemon.md, "Conventions"). */
  maxBody?: number;
  handle: Handler;
}

/** A handled error: `{"detail": detail}` with the given status. */
export class DetailError extends Error {
  readonly status: number;
  readonly detail: unknown;

  constructor(status: number, detail: unknown) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.name = 'DetailError';
    this.status = status;
    this.detail = detail;
  }
}

/** Mirrors an uncaught Python exception: the client sees only 500 text/plain. */
export class UncaughtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UncaughtError';
  }
}

export const INTERNAL_ERROR: Reply = {
  status: 500,
  text: 'Internal Server Error',
  contentType: 'text/plain; charset=utf-8',
};

/** `/api/x/{name}` matches one segment, `{name:path}` matches the rest including slashes. */
export function route(
  method: string,
  path: string,
  handle: Handler,
  opts: { backend?: boolean; maxBody?: number } = {},
): Route {
  const keys: string[] = [];
  const source = path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{(\w+)(:path)?\\?\}/g, (_m, key: string, isPath?: string) => {
      keys.push(key);
      return isPath ? '(.+)' : '([^/]+)';
    });
  return {
    method,
    path,
    pattern: new RegExp(`^${source}$`),
    keys,
    backend: opts.backend ?? false,
    maxBody: opts.maxBody,
    handle,
  };
}

export type Match = { route: Route; params: Record<string, string> } | { status: 404 | 405 };

export function matchRoute(routes: readonly Route[], method: string, path: string): Match {
  let pathKnown = false;
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (r.method !== method) continue;
    const params: Record<string, string> = {};
    r.keys.forEach((key, i) => {
      params[key] = safeDecode(m[i + 1] ?? '');
    });
    return { route: r, params };
  }
  return { status: pathKnown ? 405 : 404 };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** JSON body as FastAPI decodes it: empty → undefined (a `missing` body), bad JSON → 422 json_invalid. */
export function jsonBody(req: SimRequest): unknown {
  const text = req.body.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const at = /position (\d+)/.exec(String(error));
    const err = jsonInvalid('Expecting value');
    err.loc = ['body', Number(at?.[1] ?? 0)];
    throw new ValidationError([err]);
  }
}

export function errorReply(error: unknown): Reply {
  if (error instanceof ValidationError) return { status: 422, json: { detail: error.errors } };
  if (error instanceof DetailError) return { status: error.status, json: { detail: error.detail } };
  return INTERNAL_ERROR;
}

export function send(res: ServerResponse, reply: Reply): void {
  if (res.writableEnded || res.destroyed) return;
  const status = reply.status ?? 200;
  if ('text' in reply) {
    res.writeHead(status, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.text) });
    res.end(reply.text);
    return;
  }
  const body = JSON.stringify(reply.json);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The route list as FastAPI's `/openapi.json` gives it (paths without `:path` converters, one
 * lower-case method key each): what the cockpit's capability map reads. Operation details are
 * not simulated.
 */
export function openApiDocument(routes: readonly Route[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:path\}/g, '}');
    (paths[path] ??= {})[r.method.toLowerCase()] = {};
  }
  return { openapi: '3.1.0', info: { title: 'FastAPI', version: '0.1.0', 'x-daemon-version': version }, paths };
}
