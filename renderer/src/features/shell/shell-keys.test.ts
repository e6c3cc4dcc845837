import { describe, expect, it } from 'vitest';
import { shellKey, type KeyLike } from './shell-keys.ts';

function key(k: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key: k, ctrlKey: false, altKey: false, metaKey: false, target: null, ...extra };
}

function element(tagName: string, attrs: Record<string, string> = {}): EventTarget {
  return {
    tagName,
    isContentEditable: false,
    getAttribute: (name: string) => attrs[name] ?? null,
  } as unknown as EventTarget;
}

describe('shellKey', () => {
  it('opens the sheet on ? and the pages on their digits', () => {
    expect(shellKey(key('?'))).toEqual({ kind: 'help' });
    expect(shellKey(key('1'))).toEqual({ kind: 'page', page: 'cockpit' });
    expect(shellKey(key('6'))).toEqual({ kind: 'page', page: 'settings' });
    expect(shellKey(key('7'))).toBeNull();
    expect(shellKey(key('a'))).toBeNull();
  });

  it('leaves keys to the browser with a modifier, and to a field being typed in', () => {
    expect(shellKey(key('1', { ctrlKey: true }))).toBeNull();
    expect(shellKey(key('1', { metaKey: true }))).toBeNull();
    expect(shellKey(key('?', { altKey: true }))).toBeNull();
    expect(shellKey(key('?', { target: element('TEXTAREA') }))).toBeNull();
    expect(shellKey(key('2', { target: element('INPUT', { type: 'text' }) }))).toBeNull();
    expect(shellKey(key('2', { target: element('BUTTON') }))).toEqual({ kind: 'page', page: 'agent' });
  });
});
