/**
 * The wheeled robot's pages, by hash like the desktop server's dashboard (shell/routes.ts): Drive (the
 * base, its camera and map, the default), Chat (the rover's agent, by text or voice) and
 * Settings (service tokens). Anything else opens Drive.
 */
export type WheeledPage = 'drive' | 'chat' | 'settings';

export const WHEELED_PAGES: readonly { id: WheeledPage; label: string; key: string; href: string }[] = (
  [
    { id: 'drive', label: 'Drive', key: '1' },
    { id: 'chat', label: 'Chat', key: '2' },
    { id: 'settings', label: 'Settings', key: '3' },
  ] as const
).map((page) => ({ ...page, href: `#/${page.id}` }));

export function wheeledPageOfHash(hash: string): WheeledPage {
  const id = hash.replace(/^#\/?/, '').split('/')[0];
  return WHEELED_PAGES.find((page) => page.id === id)?.id ?? 'drive';
}
