import { describe, expect, it } from 'vitest';
import { hrefOf, isRouteHash, PAGES, routeOfHash, SETTINGS_SECTIONS } from './routes.ts';

describe('routeOfHash', () => {
  it('opens the cockpit for an empty, unknown or token-only hash', () => {
    for (const hash of ['', '#', '#/', '#/nowhere', '#token=abc', '#/settings-x']) {
      expect(routeOfHash(hash)).toEqual({ page: 'cockpit', section: null });
    }
  });

  it('reads every page back from the link it writes', () => {
    for (const page of PAGES) {
      const route = routeOfHash(hrefOf(page.id));
      expect(route.page).toBe(page.id);
    }
    expect(routeOfHash(hrefOf('fleet'))).toEqual({ page: 'fleet', section: null });
  });

  it('reads settings sections, defaulting to the first one', () => {
    for (const section of SETTINGS_SECTIONS) {
      expect(routeOfHash(hrefOf('settings', section.id))).toEqual({ page: 'settings', section: section.id });
    }
    expect(routeOfHash('#/settings')).toEqual({ page: 'settings', section: 'security' });
    expect(routeOfHash('#/settings/bogus')).toEqual({ page: 'settings', section: 'security' });
  });

  it('keeps the addresses of earlier versions working', () => {
    expect(routeOfHash('#security')).toEqual({ page: 'settings', section: 'security' });
    expect(routeOfHash('#fleet')).toEqual({ page: 'fleet', section: null });
    expect(routeOfHash('#cards')).toEqual({ page: 'cockpit', section: null });
  });

  it('ignores a section on pages that have none', () => {
    expect(routeOfHash('#/agent/extra')).toEqual({ page: 'agent', section: null });
    expect(hrefOf('agent', 'about')).toBe('#/agent');
  });
});

describe('PAGES', () => {
  it('link to the address hrefOf writes', () => {
    for (const page of PAGES) expect(page.href).toBe(hrefOf(page.id));
  });
});

describe('isRouteHash', () => {
  it('tells page addresses from in-page anchors', () => {
    for (const hash of ['', '#', '#/agent', '#/settings/about', '#/nowhere', '#security', '#fleet', '#cards']) {
      expect(isRouteHash(hash)).toBe(true);
    }
    for (const hash of ['#app-log', '#token=x', '#page']) expect(isRouteHash(hash)).toBe(false);
  });
});
