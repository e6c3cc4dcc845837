/**
 * The dashboard's HTTP client: same-origin JSON calls carrying the owner token as a bearer.
 * Every outcome is an ApiResult; a 401 also tells the session, which shows the sign-in card.
 */
import { failureFromBody, networkFailure, type ApiResult } from './api-result.ts';

export interface HttpClientOptions {
  getToken: () => string | null;
  /** Called when the cockpit refuses the stored token (not for an explicit token under test). */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Use this token instead of the stored one, e.g. to check a token typed at sign-in. */
  token?: string;
  signal?: AbortSignal;
}

export interface HttpClient {
  request<T>(path: string, options?: RequestOptions): Promise<ApiResult<T>>;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  // Wrapped, not passed as is: calling the browser's fetch detached from window throws.
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 8000;

  return {
    async request<T>(path: string, request: RequestOptions = {}): Promise<ApiResult<T>> {
      const token = request.token ?? options.getToken();
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      // A hand-made timeout rather than AbortSignal.any, which older phone browsers lack.
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const forward = () => controller.abort();
      request.signal?.addEventListener('abort', forward, { once: true });
      if (request.signal?.aborted) controller.abort();
      let response: Response;
      let body: unknown;
      try {
        response = await doFetch(path, {
          method: request.method ?? 'GET',
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: controller.signal,
          credentials: 'same-origin',
        });
        body = await response.json().catch(() => null);
      } catch {
        return networkFailure(timedOut);
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', forward);
      }
      if (response.ok) return { ok: true, status: response.status, data: body as T };
      if (response.status === 401 && request.token === undefined) options.onUnauthorized?.();
      return failureFromBody(response.status, body);
    },
  };
}
