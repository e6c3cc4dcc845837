import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES, messageOf, STATUS_BY_KIND, type ErrorCode } from './errors.ts';

describe('error catalogue', () => {
  it('documents every code in the README error table with its status', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('<!-- error-table:start -->'), readme.indexOf('<!-- error-table:end -->'));
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      expect(table, `README lacks ${code}`).toContain(`| \`${code}\` | ${STATUS_BY_KIND[entry.kind]} |`);
    }
    const documented = [...table.matchAll(/\| `([A-Z_]+)` \|/g)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('gives each error the status of its kind', () => {
    const e = new AppError('RATE_LIMITED', 'slow down', { 'Retry-After': '1' });
    expect([e.status, e.kind, e.headers['Retry-After']]).toEqual([429, 'rate_limited', '1']);
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) expect(new AppError(code, 'x').status).toBeGreaterThanOrEqual(400);
  });
});

describe('messageOf', () => {
  it('gives the message of an Error, an AppError and an error-like object, else the value as text', () => {
    expect(messageOf(new Error('disk full'))).toBe('disk full');
    expect(messageOf(new AppError('DAEMON_STOPPED', 'backend not running'))).toBe('backend not running');
    expect(messageOf({ message: 'from a library' })).toBe('from a library');
    expect(messageOf({ message: 42 })).toBe('[object Object]');
    expect(messageOf('plain text')).toBe('plain text');
    expect(messageOf(undefined)).toBe('undefined');
    expect(messageOf(null)).toBe('null');
  });
});
