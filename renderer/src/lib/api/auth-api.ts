/**
 * The cockpit's auth routes as the dashboard uses them (server/auth/auth-routes.ts); their shapes
 * are the contract's (server/contract/auth.ts).
 */
import type { AuthStatus, Pairing, PublicCredential } from '../../../../server/contract/index.ts';
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

/** Callers the cockpit lets drive the robot without the owner token in the page. */
export function hasKeySession(status: Pick<AuthStatus, 'who'>): boolean {
  return status.who === 'passkey' || status.who === 'local-window';
}

export function getAuthStatus(http: HttpClient): Promise<ApiResult<AuthStatus>> {
  return http.request<AuthStatus>('/api/auth/status');
}

/**
 * Asks for the auth status until the cockpit answers, `retryMs` apart, and hands the answer to
 * `onStatus`. A sign-in page that asked once and met a dropped request (the cockpit restarting,
 * a Wi-Fi blip) would otherwise offer the owner token alone until reloaded. Returns a cancel.
 */
export function watchAuthStatus(http: HttpClient, onStatus: (status: AuthStatus) => void, retryMs = 3000): () => void {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ask = (): void => {
    void getAuthStatus(http).then((result) => {
      if (cancelled) return;
      if (result.ok) onStatus(result.data);
      else timer = setTimeout(ask, retryMs);
    });
  };
  ask();
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

export function logout(http: HttpClient): Promise<ApiResult<{ ok: boolean }>> {
  return http.request('/api/auth/logout', { method: 'POST' });
}

export async function listPasskeys(http: HttpClient): Promise<ApiResult<PublicCredential[]>> {
  const result = await http.request<{ credentials: PublicCredential[] }>('/api/auth/credentials');
  return result.ok ? { ...result, data: result.data.credentials } : result;
}

export function renamePasskey(http: HttpClient, id: string, label: string): Promise<ApiResult<unknown>> {
  return http.request(`/api/console/auth/credentials/${encodeURIComponent(id)}`, { method: 'PUT', body: { label } });
}

export function deletePasskey(http: HttpClient, id: string): Promise<ApiResult<unknown>> {
  return http.request(`/api/auth/credentials/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function createPairing(http: HttpClient): Promise<ApiResult<Pairing>> {
  return http.request<Pairing>('/api/console/auth/pairing', { method: 'POST' });
}
