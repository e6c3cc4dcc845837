/**
 * The wheeled server's HTTP routes and socket addresses as the wheeled dashboard uses them
 * (server/wheeled/README-wheeled.md). Like lib/api/ for the desktop server, this is the only code of the
 * variant that calls the server; it goes through lib/api's HTTP client, so every outcome is an
 * ApiResult and raw fetch errors never reach a component.
 */
import type {
  DriveSettingsView,
  ServiceTokenInfo,
  SessionTokenAnswer,
  WheeledHealth,
} from '../../../../server/contract/wheeled.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

// The shape is the contract's (server/contract/wheeled.ts); the drive card takes it from here with the calls.
export type { DriveSettingsView };

export interface MintedToken extends ServiceTokenInfo {
  token: string;
}

/** wss://host/ws/<name>?token=… on the page's own origin (browsers cannot set socket headers). */
export function socketUrl(
  location: { protocol: string; host: string },
  name: 'chat' | 'voice' | 'state',
  token: string,
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws/${name}?token=${encodeURIComponent(token)}`;
}

/** The camera's MJPEG stream for an <img> (the token rides in the query like on sockets). */
export function streamUrl(token: string): string {
  return `/api/stream?token=${encodeURIComponent(token)}`;
}

export const getHealth = (http: HttpClient): Promise<ApiResult<WheeledHealth>> => http.request('/api/health');

/** A fresh JWT from the passkey session cookie (sent only to /api/auth/*), without a bearer. */
export const refreshToken = (http: HttpClient): Promise<ApiResult<SessionTokenAnswer>> =>
  http.request('/api/auth/refresh', { method: 'POST', token: '' });

export const getDriveSettings = (http: HttpClient): Promise<ApiResult<DriveSettingsView>> =>
  http.request('/api/drive/settings');

export const setPreset = (
  http: HttpClient,
  preset: DriveSettingsView['preset'],
): Promise<ApiResult<DriveSettingsView>> => http.request('/api/drive/settings', { method: 'PUT', body: { preset } });

export const setGate = (http: HttpClient, open: boolean): Promise<ApiResult<{ open: boolean }>> =>
  http.request('/api/drive/gate', { method: 'POST', body: { open } });

export const stopBase = (http: HttpClient): Promise<ApiResult<unknown>> =>
  http.request('/api/control/stop', { method: 'POST' });

export const resetOdometry = (http: HttpClient): Promise<ApiResult<unknown>> =>
  http.request('/api/drive/reset', { method: 'POST' });

export async function listTokens(http: HttpClient): Promise<ApiResult<ServiceTokenInfo[]>> {
  const result = await http.request<{ tokens: ServiceTokenInfo[] }>('/api/console/tokens');
  return result.ok ? { ...result, data: result.data.tokens } : result;
}

export const mintToken = (
  http: HttpClient,
  input: { sub: string; name: string; ttlSeconds: number },
): Promise<ApiResult<MintedToken>> => http.request('/api/console/tokens', { method: 'POST', body: input });

export const revokeToken = (http: HttpClient, id: string): Promise<ApiResult<unknown>> =>
  http.request(`/api/console/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
