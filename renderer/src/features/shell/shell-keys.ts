/**
 * The dashboard's own keys, beside the driving keys (controls/key-bindings.ts): `?` opens the
 * shortcuts sheet and the digits 1-6 open the pages of the tab bar. Quiet while typing, and
 * never with Ctrl, Alt or ⌘ held (those belong to the browser).
 */
import { isTypingTarget } from '../controls/key-bindings.ts';
import { PAGES, type PageId } from './routes.ts';

export type ShellKey = { kind: 'help' } | { kind: 'page'; page: PageId };

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  target: EventTarget | null;
}

export function shellKey(event: KeyLike): ShellKey | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  const target = event.target as Element | null;
  if (target && typeof target.getAttribute === 'function' && isTypingTarget(target)) return null;
  if (event.key === '?') return { kind: 'help' };
  const page = PAGES.find((p) => p.key === event.key);
  return page ? { kind: 'page', page: page.id } : null;
}
