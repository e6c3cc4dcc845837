import { describe, expect, it } from 'vitest';
import { decodeOrUndefined, parseHost, parseTarget, readSessionCookie } from './untrusted-input.ts';

describe('parseTarget', () => {
  it('reads origin-form and absolute-form targets', () => {
    const origin = parseTarget('/ws?token=a%20b');
    expect(origin.ok && origin.value.pathname).toBe('/ws');
    expect(origin.ok && origin.value.query.get('token')).toBe('a b');
    const absolute = parseTarget('http://127.0.0.1:8097/api/state?x=1');
    expect(absolute.ok && absolute.value.pathname).toBe('/api/state');
    // `//x` is a path here, never a host to reach.
    const doubled = parseTarget('//evil.example/ws');
    expect(doubled.ok && doubled.value.pathname).toBe('//evil.example/ws');
  });

  it('answers a reason, never a throw, for targets no page produces', () => {
    for (const raw of [undefined, '', 'http://[/ws', 'http://[::1/ws', 'https://a b/', '*', '127.0.0.1:80', 'ftp://x/', 'ws', 'javascript:alert(1)', `/${'a'.repeat(9000)}`]) {
      const parsed = parseTarget(raw);
      expect(parsed.ok, String(raw)).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(/request target/);
    }
  });

  it('keeps malformed percent escapes in the query without throwing', () => {
    const parsed = parseTarget('/ws?token=%E0%A4%A&x=%zz');
    // URLSearchParams decodes leniently (U+FFFD for the broken sequence): a value, never a throw.
    expect(parsed.ok && parsed.value.query.get('token')).toBe('\ufffd%A');
    expect(parsed.ok && parsed.value.query.get('x')).toBe('%zz');
  });
});

describe('readSessionCookie', () => {
  it('finds the session among other cookies, first one winning', () => {
    expect(readSessionCookie('a=1; cockpit_session=abc_DEF-123; cockpit_session=other')).toEqual({ ok: true, value: 'abc_DEF-123' });
    expect(readSessionCookie(['theme=dark', 'cockpit_session="quoted"'])).toEqual({ ok: true, value: 'quoted' });
    expect(readSessionCookie(undefined)).toEqual({ ok: true, value: undefined });
    expect(readSessionCookie('cockpit_session=')).toEqual({ ok: true, value: undefined });
  });

  it('refuses a session cookie that cannot be one of ours', () => {
    for (const header of ['cockpit_session=%E0%A4%A', 'cockpit_session=a b', 'cockpit_session=<script>', `cockpit_session=${'a'.repeat(300)}`]) {
      const parsed = readSessionCookie(header);
      expect(parsed.ok, header).toBe(false);
    }
  });

  it('never looks into other programs’ cookies, however odd or many', () => {
    const many = Array.from({ length: 500 }, (_, i) => `c${i}=%E0%A4%A`).join('; ');
    expect(readSessionCookie(`${many}; =; ;;; \u0000=\u0001; %zz=%zz`)).toEqual({ ok: true, value: undefined });
    expect(readSessionCookie(`${many}; cockpit_session=ok`)).toEqual({ ok: true, value: 'ok' });
  });
});

describe('parseHost', () => {
  it('reads names, addresses and ports', () => {
    expect(parseHost('Robot.Local.:8097')).toEqual({ ok: true, value: { name: 'robot.local', port: 8097 } });
    expect(parseHost('[::1]:8098')).toEqual({ ok: true, value: { name: '::1', port: 8098 } });
    expect(parseHost('192.168.1.20')).toEqual({ ok: true, value: { name: '192.168.1.20', port: undefined } });
  });

  it('refuses what no client sends', () => {
    for (const header of [undefined, '', '[::1', '[zz]', 'a b', 'host:99999', 'host:abc', ':80', 'a..b', 'ex\u0000ample', `${'a'.repeat(300)}`, 'user@host']) {
      expect(parseHost(header).ok, String(header)).toBe(false);
    }
  });
});

describe('decodeOrUndefined', () => {
  it('decodes, or answers undefined for malformed escapes', () => {
    expect(decodeOrUndefined('a%20b')).toBe('a b');
    expect(decodeOrUndefined('%E0%A4%A')).toBeUndefined();
  });
});
