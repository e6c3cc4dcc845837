/**
 * The current route, read from the address's hash and followed as it changes (Back, links);
 * an in-page anchor leaves it as it is (routes.ts, isRouteHash).
 */
import { isRouteHash, routeOfHash, type Route } from './routes.ts';

export class CurrentRoute {
  current = $state<Route>(routeOfHash(window.location.hash));

  constructor() {
    $effect(() => {
      const read = () => {
        if (isRouteHash(window.location.hash)) this.current = routeOfHash(window.location.hash);
      };
      window.addEventListener('hashchange', read);
      return () => window.removeEventListener('hashchange', read);
    });
  }
}
