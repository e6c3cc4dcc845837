/**
 * The dashboard's pages and their addresses. Routing is by hash (`#/agent`,
 * `#/settings/platform`): the server serves one shell at `/`, the Back button walks the history,
 * and a page's address can be bookmarked, linked from the tray or opened by a notification.
 * Addresses of earlier versions (`#security`, `#fleet`, `#cards`) still lead to their page.
 */

export type PageId = 'cockpit' | 'agent' | 'perception' | 'moves' | 'apps' | 'settings' | 'fleet';

export type SettingsSection =
  'security' | 'platform' | 'notifications' | 'personas' | 'diagnostics' | 'recordings' | 'about';

export interface Route {
  page: PageId;
  /** Only on the settings page: the section shown. */
  section: SettingsSection | null;
}

export interface PageEntry {
  id: PageId;
  label: string;
  /** One key that opens the page from the keyboard (the shortcuts sheet lists them). */
  key: string;
  href: string;
}

/** The pages of the tab bar, in order. The fleet is reached from Settings and the header. */
export const PAGES: readonly PageEntry[] = (
  [
    { id: 'cockpit', label: 'Cockpit', key: '1' },
    { id: 'agent', label: 'Agent', key: '2' },
    { id: 'perception', label: 'Perception', key: '3' },
    { id: 'moves', label: 'Moves', key: '4' },
    { id: 'apps', label: 'Apps', key: '5' },
    { id: 'settings', label: 'Settings', key: '6' },
  ] as const
).map((page) => ({ ...page, href: `#/${page.id}` }));

export const SETTINGS_SECTIONS: readonly { id: SettingsSection; label: string }[] = [
  { id: 'security', label: 'Security and passkeys' },
  { id: 'platform', label: 'Platform' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'personas', label: 'Personas' },
  { id: 'diagnostics', label: 'Diagnostics' },
  { id: 'recordings', label: 'Black box' },
  { id: 'about', label: 'About' },
];

const PAGE_IDS = new Set<string>([...PAGES.map((p) => p.id), 'fleet']);
const SECTION_IDS = new Set<string>(SETTINGS_SECTIONS.map((s) => s.id));

/** Older addresses, kept so links and bookmarks made before the pages existed still work. */
const LEGACY: Record<string, Route> = {
  '#security': { page: 'settings', section: 'security' },
  '#fleet': { page: 'fleet', section: null },
  '#cards': { page: 'cockpit', section: null },
};

/**
 * Whether a hash names a page at all. An in-page anchor (`#app-log`, a card's own link) does not:
 * following it keeps the page that is open.
 */
export function isRouteHash(hash: string): boolean {
  return hash === '' || hash === '#' || hash.startsWith('#/') || hash in LEGACY;
}

/** The route of an address's hash; anything unknown is the cockpit, the default page. */
export function routeOfHash(hash: string): Route {
  const legacy = LEGACY[hash];
  if (legacy) return legacy;
  const [page = '', section = ''] = hash.replace(/^#\/?/, '').split('/');
  if (!PAGE_IDS.has(page)) return { page: 'cockpit', section: null };
  if (page !== 'settings') return { page: page as PageId, section: null };
  return { page: 'settings', section: SECTION_IDS.has(section) ? (section as SettingsSection) : 'security' };
}

/** The hash of a page (and settings section), as links write it. */
export function hrefOf(page: PageId, section?: SettingsSection): string {
  return section && page === 'settings' ? `#/settings/${section}` : `#/${page}`;
}
