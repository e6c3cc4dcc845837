import { describe, expect, it } from 'vitest';
import { checkPlatformUrl, isLoopbackHost, privateLanOrigin } from './url-policy.ts';

describe('checkPlatformUrl', () => {
  it('accepts https and reduces it to the origin', () => {
    expect(checkPlatformUrl(' https://tiny.technology/some/page?x=1 ')).toEqual({
      ok: true,
      value: 'https://tiny.technology',
    });
  });

  it('accepts plain http only for a loopback host', () => {
    expect(checkPlatformUrl('http://127.0.0.1:4321')).toEqual({ ok: true, value: 'http://127.0.0.1:4321' });
    expect(checkPlatformUrl('http://localhost:80/')).toMatchObject({ ok: true });
    expect(checkPlatformUrl('http://[::1]:9000')).toMatchObject({ ok: true });
    expect(checkPlatformUrl('http://tiny.technology')).toMatchObject({ ok: false, failure: { kind: 'bad_request' } });
    expect(checkPlatformUrl('http://192.168.1.4')).toMatchObject({ ok: false });
  });

  it('refuses other schemes, garbage and embedded credentials', () => {
    expect(checkPlatformUrl('ftp://tiny.technology')).toMatchObject({ ok: false });
    expect(checkPlatformUrl('not a url')).toMatchObject({ ok: false });
    expect(checkPlatformUrl('https://u:p@tiny.technology')).toMatchObject({ ok: false });
  });
});

describe('privateLanOrigin', () => {
  it('keeps http on the four private IPv4 ranges, as an origin', () => {
    expect(privateLanOrigin('http://192.168.1.20:8097/dash')).toBe('http://192.168.1.20:8097');
    expect(privateLanOrigin('http://10.0.0.5:8097')).toBe('http://10.0.0.5:8097');
    expect(privateLanOrigin('http://172.16.0.1')).toBe('http://172.16.0.1');
    expect(privateLanOrigin('http://172.31.255.1')).toBe('http://172.31.255.1');
    expect(privateLanOrigin('http://169.254.3.3')).toBe('http://169.254.3.3');
  });

  it('drops public, loopback, host-name and https URLs', () => {
    for (const raw of [
      'http://8.8.8.8',
      'http://172.32.0.1',
      'http://127.0.0.1:8097',
      'http://robot.local',
      'https://192.168.1.2',
      '',
      null,
    ]) {
      expect(privateLanOrigin(raw)).toBeNull();
    }
  });
});

describe('isLoopbackHost', () => {
  it('knows the loopback names', () => {
    expect(isLoopbackHost('127.3.4.5')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });
});
