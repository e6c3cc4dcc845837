/**
 * Which component draws each page. The cockpit is in the first download; every other page is
 * its own chunk, fetched when first opened, so the dashboard's initial JavaScript stays small.
 * (Settings, which takes a prop, is imported the same way by Dashboard.svelte.)
 */
import type { Component } from 'svelte';
import type { PageId } from '../features/shell/routes.ts';

type Loader = () => Promise<{ default: Component }>;

export const LAZY_PAGES: Record<Exclude<PageId, 'cockpit' | 'settings'>, Loader> = {
  agent: () => import('../features/agent/AgentCard.svelte'),
  perception: () => import('../features/perception/PerceptionCard.svelte'),
  moves: () => import('../features/controls/MovesCard.svelte'),
  apps: () => import('./Apps.svelte'),
  fleet: () => import('../features/fleet/FleetPage.svelte'),
};
