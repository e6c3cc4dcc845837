import { describe, expect, it } from 'vitest';
import { extractToken } from './token-url.ts';

describe('extractToken', () => {
  it.each([
    ['http://robot:8097/?token=abc', 'abc', '/'],
    ['http://robot:8097/#token=abc', 'abc', '/'],
    ['http://robot:8097/?view=pose&token=abc', 'abc', '/?view=pose'],
    ['http://robot:8097/#token=abc&tab=log', 'abc', '/#tab=log'],
    ['http://robot:8097/?token=a%2Bb%3D', 'a+b=', '/'],
  ])('reads %s', (href, token, cleaned) => {
    expect(extractToken(href)).toEqual({ token, cleanedUrl: cleaned });
  });

  it('prefers the query over the hash and removes both', () => {
    expect(extractToken('http://robot/?token=q#token=h')).toEqual({ token: 'q', cleanedUrl: '/' });
  });

  it('leaves an address without a token alone', () => {
    expect(extractToken('http://robot/?view=pose#tab=log')).toEqual({ token: null, cleanedUrl: null });
  });

  it('cleans an empty token but does not use it', () => {
    expect(extractToken('http://robot/?token=')).toEqual({ token: null, cleanedUrl: '/' });
  });

  it('keeps a page address in the hash when the token is in the query', () => {
    expect(extractToken('http://robot/?token=abc#/settings/platform')).toEqual({
      token: 'abc',
      cleanedUrl: '/#/settings/platform',
    });
  });
});
