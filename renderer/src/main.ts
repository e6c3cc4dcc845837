import { mount, type Component } from 'svelte';
import './app.css';
import { applyTheme, storedTheme } from './features/shell/theme.ts';

applyTheme(storedTheme());

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the dashboard in');

/**
 * Server B (the wheeled robot) names itself in its public health (`robot: "wheeled"`) and gets
 * its own dashboard; anything else, including no answer in time, is server A's. Each root is its
 * own chunk, so server A's never carries the wheeled dashboard. Server A's chunk is fetched while
 * the question is asked rather than after the answer: the first live state is one round trip
 * sooner on the common robot, at the price of an unused download on a wheeled one.
 */
async function robotKind(): Promise<string | undefined> {
  const asked = fetch('/api/health', { headers: { accept: 'application/json' } })
    .then((res) => res.json() as Promise<{ robot?: unknown }>)
    .then((body) => (typeof body.robot === 'string' ? body.robot : undefined))
    .catch(() => undefined);
  const late = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2500));
  return Promise.race([asked, late]);
}

const desktopRoot = import('./App.svelte');
// Not awaited on a wheeled robot: a failed download there must not surface as an unhandled rejection.
desktopRoot.catch(() => undefined);
const root: Component =
  (await robotKind()) === 'wheeled'
    ? (await import('./features/wheeled/WheeledApp.svelte')).default
    : (await desktopRoot).default;
mount(root, { target });
