/**
 * The cockpit's auth routes as the dashboard uses them (server/auth/auth-routes.ts). The shapes
 * are written out here because server/contract does not carry them; the renderer may take only
 * types from the server, and these mirror the route bodies one to one.
 */
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

/** GET /api/auth/status. */
export interface AuthStatus {
  /** How the cockpit knows this caller; `loopback` may read but not drive. */
  who: 'passkey' | 'token' | 'loopback' | 'anonymous' | 'local-window';
  owner: boolean;
  passkeys: number;
  hasCredentials: boolean;
  /** No passkey exists yet: the next enrolment is trust-on-first-use. */
  firstUseOpen: boolean;
  registrationOpen: boolean;
  enrolTokenConfigured: boolean;
  /** Epoch ms when the caller's passkey session ends, null without one. */
  sessionExpiresAt: number | null;
  secure: boolean;
  /** The page was opened by a raw IP address, which cannot hold a passkey. */
  ipHost: boolean;
}

/** One enrolled passkey as the owner sees it (never key material). */
export interface PasskeyInfo {
  id: string;
  label: string;
  /** ISO times. */
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /api/console/auth/pairing: a one-time link a phone opens to enrol its own passkey. */
export interface Pairing {
  code: string;
  /** Epoch ms. */
  expiresAt: number;
  url: string;
}

/** Callers the cockpit lets drive the robot without the owner token in the page. */
export function hasKeySession(status: Pick<AuthStatus, 'who'>): boolean {
  return status.who === 'passkey' || status.who === 'local-window';
}

export function getAuthStatus(http: HttpClient): Promise<ApiResult<AuthStatus>> {
  return http.request<AuthStatus>('/api/auth/status');
}

export function logout(http: HttpClient): Promise<ApiResult<{ ok: boolean }>> {
  return http.request('/api/auth/logout', { method: 'POST' });
}

export async function listPasskeys(http: HttpClient): Promise<ApiResult<PasskeyInfo[]>> {
  const result = await http.request<{ credentials: PasskeyInfo[] }>('/api/auth/credentials');
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
