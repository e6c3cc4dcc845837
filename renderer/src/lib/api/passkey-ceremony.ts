/**
 * The two passkey ceremonies, each a begin call, the browser's WebAuthn prompt and a complete
 * call (server/auth/auth-routes.ts). A success leaves the HttpOnly session cookie set by the
 * cockpit; the page never sees it. Every outcome is an ApiResult, including a cancelled prompt.
 */
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { ApiResult } from './api-result.ts';
import type { PasskeyEnrolBody, PasskeyEnrolled, PasskeySignedIn } from '../../../../server/contract/index.ts';
import type { HttpClient } from './http-client.ts';
import { ceremonyFailure, type Ceremony } from './passkey-errors.ts';

async function prompt<T>(run: () => Promise<T>, ceremony: Ceremony): Promise<ApiResult<T>> {
  try {
    return { ok: true, status: 0, data: await run() };
  } catch (error) {
    return ceremonyFailure(error, ceremony);
  }
}

export async function enrolPasskey(http: HttpClient, request: PasskeyEnrolBody): Promise<ApiResult<PasskeyEnrolled>> {
  const begin = await http.request<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/auth/register/begin',
    { method: 'POST', body: request },
  );
  if (!begin.ok) return begin;
  const response = await prompt(() => startRegistration({ optionsJSON: begin.data.options }), 'register');
  if (!response.ok) return response;
  return http.request<PasskeyEnrolled>('/api/auth/register/complete', {
    method: 'POST',
    body: { challengeId: begin.data.challengeId, response: response.data },
  });
}

export async function signInWithPasskey(http: HttpClient): Promise<ApiResult<PasskeySignedIn>> {
  const begin = await http.request<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/login/begin',
    { method: 'POST' },
  );
  if (!begin.ok) return begin;
  const response = await prompt(() => startAuthentication({ optionsJSON: begin.data.options }), 'login');
  if (!response.ok) return response;
  return http.request<PasskeySignedIn>('/api/auth/login/complete', {
    method: 'POST',
    body: { challengeId: begin.data.challengeId, response: response.data },
  });
}
