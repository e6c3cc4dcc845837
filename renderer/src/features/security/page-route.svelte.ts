/**
 * Which page of the signed-in dashboard shows: the cards, or the security settings at
 * `#security`. A hash keeps the Back button and a bookmark working without a router.
 */
export type DashboardPage = 'cards' | 'security';

export function pageOfHash(hash: string): DashboardPage {
  return hash === '#security' ? 'security' : 'cards';
}

export class PageRoute {
  page = $state<DashboardPage>(pageOfHash(window.location.hash));

  constructor() {
    $effect(() => {
      const read = () => (this.page = pageOfHash(window.location.hash));
      window.addEventListener('hashchange', read);
      return () => window.removeEventListener('hashchange', read);
    });
  }
}
