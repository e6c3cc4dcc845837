import type { HttpClient } from './http-client.ts';

export type TokenCheck = { verdict: 'accepted' } | { verdict: 'refused' | 'unreachable' | 'failed'; message: string };

/**
 * Asks the cockpit whether a typed token opens the dashboard, with a call that needs it
 * (GET /api/state). A 503 still counts as accepted: the gate let the token through and only
 * the robot daemon is missing, which the dashboard shows honestly once open.
 */
export async function verifyToken(http: HttpClient, token: string): Promise<TokenCheck> {
  const result = await http.request<unknown>('/api/state', { token });
  if (result.ok || result.status === 503) return { verdict: 'accepted' };
  if (result.status === 401 || result.status === 403) {
    return { verdict: 'refused', message: 'The cockpit refused this token. Check it and try again.' };
  }
  if (result.status === 0) return { verdict: 'unreachable', message: result.message };
  return { verdict: 'failed', message: result.message };
}
