/**
 * The shortcut in refuseMalformed: a target it lets through without the full parse must be one
 * the full parse accepts, and anything unusual must take the full parse.
 */
import { expect, it } from 'vitest';
import { isPlainTarget } from './malformed-request.ts';
import { parseTarget } from './untrusted-input.ts';

it('lets through only targets the full parse accepts', () => {
  for (const url of ['/', '/api/state', '/api/stream?token=abc-DEF_1.2~3', '//x', '/a/../b', '/q?a=%zz&b=1+2', '/x.y~z/']) {
    expect(isPlainTarget(url), url).toBe(true);
    const parsed = parseTarget(url);
    expect(parsed.ok, url).toBe(true);
  }
});

it('sends everything unusual through the full parse', () => {
  for (const url of [undefined, '', '*', 'http://[/ws', 'http://host/api', '/a b', '/%zz', '/a?b=c#d', '/a?x=[1]', '/\u00e9', `/${'a'.repeat(8192)}`, 'api/state']) {
    expect(isPlainTarget(url), String(url).slice(0, 40)).toBe(false);
  }
});
