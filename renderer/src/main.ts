import { mount, type Component } from 'svelte';
import './app.css';
import { applyTheme, storedTheme } from './features/shell/theme.ts';

applyTheme(storedTheme());

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the dashboard in');

/**
 * The wheeled server gets its own dashboard; anything else is the desktop server's. The cockpit
 * names the kind in the shell it serves (`<meta name="robot-kind">`, server/http/static-shell.ts),
 * so the right dashboard mounts without a round trip. A page served otherwise (the Vite dev
 * server) asks the public health, where the wheeled server says `robot: "wheeled"`, and takes the desktop server's
 * when no answer comes in time. Each root is its own chunk, so the desktop server's never carries the
 * wheeled dashboard; the desktop server's is fetched while the question is asked, not after the answer.
 */
function namedKind(): string | undefined {
  const tag = document.querySelector('meta[name="robot-kind"]');
  return tag?.getAttribute('content') ?? undefined;
}

async function robotKind(): Promise<string | undefined> {
  const named = namedKind();
  if (named) return named;
  const asked = fetch('/api/health', { headers: { accept: 'application/json' } })
    .then((res) => res.json() as Promise<{ robot?: unknown }>)
    .then((body) => (typeof body.robot === 'string' ? body.robot : undefined))
    .catch(() => undefined);
  const late = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2500));
  return Promise.race([asked, late]);
}

// Not fetched at all when the shell says wheeled; otherwise not awaited on a wheeled robot: a
// failed download there must not surface as an unhandled rejection.
const desktopRoot = namedKind() === 'wheeled' ? undefined : import('./App.svelte');
desktopRoot?.catch(() => undefined);
const root: Component =
  (await robotKind()) === 'wheeled'
    ? (await import('./features/wheeled/WheeledApp.svelte')).default
    : (await (desktopRoot ?? import('./App.svelte'))).default;
mount(root, { target });
