/**
 * The caller parser on what a stranger can put in Authorization, `?token=` and the cookie: each
 * is a wrong credential or none, never an exception.
 */
import type { IncomingMessage } from 'node:http';
import { expect, it } from 'vitest';
import { resolveCaller } from './caller.ts';

const TOKEN = 'caller-test-owner-token-0123456789';
const creds = { ownerToken: TOKEN, validateSession: (id: string) => (id === 'live' ? { key: 'k', credentialId: 'c', expiresAt: 1 } : undefined) };

function req(headers: Record<string, string>, peer = '192.168.1.9'): IncomingMessage {
  return { headers, socket: { remoteAddress: peer } } as unknown as IncomingMessage;
}

const resolve = (headers: Record<string, string>, query = '', cookie?: string, queryTokenAllowed = true) =>
  resolveCaller({ req: req(headers), queryToken: queryTokenAllowed ? (new URLSearchParams(query).get('token') ?? undefined) : undefined, cookie }, creds);

it('accepts the owner bearer however it is spaced or cased', () => {
  expect(resolve({ authorization: `Bearer ${TOKEN}` }).kind).toBe('token');
  expect(resolve({ authorization: `  bearer    ${TOKEN}  ` }).kind).toBe('token');
});

it('reads every other Authorization as a wrong credential', () => {
  for (const value of ['Bearer', 'Bearer ', `Basic ${TOKEN}`, 'Negotiate', `Bearer ${'a'.repeat(10_000)}`, 'Bearer \u00e9\u00e9', `Bearer ${TOKEN}x`, '\u0000']) {
    const caller = resolve({ authorization: value });
    expect(caller.kind, value).toBe('anonymous');
    expect(caller.failed, value).toBe(true);
  }
});

it('takes ?token= only where the route allows it, and malformed escapes are just wrong', () => {
  expect(resolve({}, `token=${TOKEN}`).kind).toBe('token');
  expect(resolve({}, `token=${TOKEN}`, undefined, false).kind).toBe('anonymous');
  const garbled = resolve({}, 'token=%E0%A4%A');
  expect(garbled.failed).toBe(true);
});

it('reads an unknown session cookie as a wrong credential', () => {
  expect(resolve({}, '', 'live').kind).toBe('passkey');
  expect(resolve({}, '', 'dead').failed).toBe(true);
});
