import { mount, type Component } from 'svelte';
import './app.css';
import { applyTheme, storedTheme } from './features/shell/theme.ts';

applyTheme(storedTheme());

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the dashboard in');

/**
 * Server B (the wheeled robot) names itself in its public health (`robot: "wheeled"`) and gets
 * its own dashboard; anything else, including no answer in time, is server A's. Each root is its
 * own chunk, so neither dashboard downloads the other.
 */
async function robotKind(): Promise<string | undefined> {
  const asked = fetch('/api/health', { headers: { accept: 'application/json' } })
    .then((res) => res.json() as Promise<{ robot?: unknown }>)
    .then((body) => (typeof body.robot === 'string' ? body.robot : undefined))
    .catch(() => undefined);
  const late = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2500));
  return Promise.race([asked, late]);
}

const root: Component =
  (await robotKind()) === 'wheeled'
    ? (await import('./features/wheeled/WheeledApp.svelte')).default
    : (await import('./App.svelte')).default;
mount(root, { target });
