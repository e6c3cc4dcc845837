/**
 * Which page of the signed-in dashboard shows: the cards, the security settings at `#security`,
 * or the fleet at `#fleet`. A hash keeps the Back button and a bookmark working without a router.
 */
export type DashboardPage = 'cards' | 'security' | 'fleet';

export function pageOfHash(hash: string): DashboardPage {
  return hash === '#security' ? 'security' : hash === '#fleet' ? 'fleet' : 'cards';
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
