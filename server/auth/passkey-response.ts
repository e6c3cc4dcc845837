/**
 * Edge validation of the WebAuthn responses a browser posts back. Anything
 * that is not shaped like a response, or whose clientDataJSON does not decode, is a 400 here,
 * before any verification runs or any state changes.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { badRequest } from '../errors.ts';
import { isRecord, isStringArray } from './shape.ts';

/** Generous for real authenticators (attestation certificates run to a few KB), small for abuse. */
const MAX_FIELD = 64 * 1024;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function b64(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_FIELD || !BASE64URL.test(value)) {
    throw badRequest(`malformed passkey response: ${name} must be a base64url string`);
  }
  return value;
}

/** Checks that clientDataJSON decodes to the JSON object every ceremony carries. */
function clientData(value: unknown): string {
  const text = b64(value, 'response.clientDataJSON');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('malformed passkey response: clientDataJSON is not JSON');
  }
  if (!isRecord(parsed) || typeof parsed['type'] !== 'string' || typeof parsed['challenge'] !== 'string') {
    throw badRequest('malformed passkey response: clientDataJSON lacks type or challenge');
  }
  if (typeof parsed['origin'] !== 'string') throw badRequest('malformed passkey response: clientDataJSON lacks origin');
  return text;
}

function envelope(u: unknown): { id: string; inner: Record<string, unknown>; extensions: Record<string, unknown> } {
  if (!isRecord(u)) throw badRequest('malformed passkey response: expected an object');
  const id = b64(u['id'], 'id');
  if (u['rawId'] !== id) throw badRequest('malformed passkey response: rawId must equal id');
  if (u['type'] !== 'public-key') throw badRequest('malformed passkey response: type must be "public-key"');
  if (!isRecord(u['response'])) throw badRequest('malformed passkey response: response must be an object');
  const ext = u['clientExtensionResults'] ?? {};
  if (!isRecord(ext)) throw badRequest('malformed passkey response: clientExtensionResults must be an object');
  return { id, inner: u['response'], extensions: ext };
}

function attachment(u: unknown): { authenticatorAttachment?: 'platform' | 'cross-platform' } {
  const value = isRecord(u) ? u['authenticatorAttachment'] : undefined;
  return value === 'platform' || value === 'cross-platform' ? { authenticatorAttachment: value } : {};
}

/** Returns a typed registration response or throws BAD_REQUEST. */
export function parseRegistrationResponse(u: unknown): RegistrationResponseJSON {
  const { id, inner, extensions } = envelope(u);
  const transports = inner['transports'] ?? [];
  if (!isStringArray(transports) || transports.length > 16) {
    throw badRequest('malformed passkey response: transports must be a list of strings');
  }
  return {
    id,
    rawId: id,
    type: 'public-key',
    clientExtensionResults: extensions,
    ...attachment(u),
    response: {
      clientDataJSON: clientData(inner['clientDataJSON']),
      attestationObject: b64(inner['attestationObject'], 'response.attestationObject'),
      transports: transports.filter((t) => t.length <= 32),
    },
  };
}

/** Returns a typed authentication response or throws BAD_REQUEST. */
export function parseAuthenticationResponse(u: unknown): AuthenticationResponseJSON {
  const { id, inner, extensions } = envelope(u);
  const userHandle = inner['userHandle'];
  return {
    id,
    rawId: id,
    type: 'public-key',
    clientExtensionResults: extensions,
    ...attachment(u),
    response: {
      clientDataJSON: clientData(inner['clientDataJSON']),
      authenticatorData: b64(inner['authenticatorData'], 'response.authenticatorData'),
      signature: b64(inner['signature'], 'response.signature'),
      ...(userHandle === undefined || userHandle === null || userHandle === ''
        ? {}
        : { userHandle: b64(userHandle, 'response.userHandle') }),
    },
  };
}
