import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PEER_HEALTH_SOURCES } from '../../server/index.ts';
import { contentSecurityPolicy, withPolicy } from './csp.ts';

const RENDERER = fileURLToPath(new URL('../../renderer/', import.meta.url));

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name as string, values];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  const policy = directives(contentSecurityPolicy('http://localhost:8097'));

  it('allows only the local origin for scripts, styles and everything by default', () => {
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
  });

  it('never allows inline code or eval', () => {
    const text = contentSecurityPolicy('http://localhost:8097');
    expect(text).not.toContain('unsafe-inline');
    expect(text).not.toContain('unsafe-eval');
  });

  it('lets the state socket reach the same host and port only', () => {
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://localhost:8097', 'wss://localhost:8097', ...PEER_HEALTH_SOURCES]);
  });

  it('allows data: and blob: pictures (QR code, camera frames) and nothing embedded', () => {
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('uses only wss: for an https origin', () => {
    const secure = directives(contentSecurityPolicy('https://localhost:8098'));
    expect(secure.get('connect-src')).toEqual(["'self'", 'wss://localhost:8098', ...PEER_HEALTH_SOURCES]);
  });
});

describe('withPolicy', () => {
  it('replaces any policy the server sent, whatever its case, and keeps other headers', () => {
    const out = withPolicy(
      {
        'content-security-policy': 'default-src *',
        'Content-Security-Policy-Report-Only': ["script-src 'unsafe-inline'"],
        'Content-Type': 'text/html',
        'Set-Cookie': ['a=1', 'b=2'],
      },
      "default-src 'self'",
    );
    expect(out).toEqual({
      'Content-Type': ['text/html'],
      'Set-Cookie': ['a=1', 'b=2'],
      'Content-Security-Policy': ["default-src 'self'"],
    });
  });

  it('adds the policy when there were no headers', () => {
    expect(withPolicy(undefined, 'x')).toEqual({ 'Content-Security-Policy': ['x'] });
  });
});

/**
 * The window's policy has no 'unsafe-inline' for styles, which holds only while the dashboard
 * sets dynamic styles through Svelte (the CSSOM) and never writes a static style attribute or a
 * <style> element into its markup: those would be blocked in the window alone, since browsers
 * get the server's looser policy. This keeps that true as the dashboard grows.
 */
describe('the dashboard markup fits the window policy', () => {
  const svelteFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? svelteFiles(join(dir, e.name)) : e.name.endsWith('.svelte') ? [join(dir, e.name)] : [],
    );

  it('has no static style attributes or inline <style> in component markup', () => {
    const offenders = svelteFiles(join(RENDERER, 'src')).filter((file) => {
      // The component's own <style> block is compiled into the CSS file; only markup matters.
      const markup = readFileSync(file, 'utf8').replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '');
      return /\sstyle\s*=\s*["'][^"'{]*["']/.test(markup) || /<style\b/.test(markup);
    });
    expect(offenders).toEqual([]);
  });

  it('has no inline script or style in the page shell', () => {
    const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<style\b/);
    expect(html.match(/<script\b[^>]*>/g) ?? []).toEqual(
      (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => /\ssrc=/.test(tag)),
    );
  });
});
