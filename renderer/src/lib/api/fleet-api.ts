/**
 * The fleet (server/discovery/README-discovery.md): the cockpit's list of robots, and each
 * robot's public health read straight from this browser, without credentials, with a short
 * timeout, so the page shows what this browser can actually reach.
 */
import type { FleetPeer, FleetView } from '../../../../server/contract/index.ts';
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

export type { FleetPeer, FleetView };

export const PEER_HEALTH_TIMEOUT_MS = 3000;

export function getFleet(http: HttpClient): Promise<ApiResult<FleetView>> {
  return http.request<FleetView>('/api/console/fleet');
}

export function addPeer(http: HttpClient, input: { host: string; port?: number }): Promise<ApiResult<FleetPeer>> {
  return http.request<FleetPeer>('/api/console/fleet/peers', { method: 'POST', body: input });
}

export function removePeer(http: HttpClient, id: string): Promise<ApiResult<unknown>> {
  return http.request('/api/console/fleet/peers/' + encodeURIComponent(id), { method: 'DELETE' });
}

export function reportFingerprint(http: HttpClient, id: string, fingerprint: string): Promise<ApiResult<FleetPeer>> {
  const path = `/api/console/fleet/peers/${encodeURIComponent(id)}/fingerprint`;
  return http.request<FleetPeer>(path, { method: 'POST', body: { fingerprint } });
}

export function trustPeer(http: HttpClient, id: string): Promise<ApiResult<FleetPeer>> {
  return http.request<FleetPeer>(`/api/console/fleet/peers/${encodeURIComponent(id)}/trust`, { method: 'POST' });
}

/** The peer's /api/health body, or null when it did not answer in time or answered nonsense. */
export async function fetchPeerHealth(url: string, timeoutMs = PEER_HEALTH_TIMEOUT_MS): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { signal: controller.signal, credentials: 'omit', cache: 'no-store' });
    return response.ok ? ((await response.json()) as unknown) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
