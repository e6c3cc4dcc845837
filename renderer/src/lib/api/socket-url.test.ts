import { describe, expect, it } from 'vitest';
import { stateSocketUrl } from './socket-url.ts';

describe('stateSocketUrl', () => {
  it('uses ws on plain http', () => {
    expect(stateSocketUrl({ protocol: 'http:', host: '127.0.0.1:8097' }, 'abc')).toBe(
      'ws://127.0.0.1:8097/ws?token=abc',
    );
  });

  it('uses wss on https and escapes the token', () => {
    expect(stateSocketUrl({ protocol: 'https:', host: 'robot.local:8098' }, 'a+b/c=')).toBe(
      'wss://robot.local:8098/ws?token=a%2Bb%2Fc%3D',
    );
  });

  it('carries no token for a passkey session (the cookie goes with the handshake)', () => {
    expect(stateSocketUrl({ protocol: 'https:', host: 'robot.local:8098' }, null)).toBe('wss://robot.local:8098/ws');
  });
});
