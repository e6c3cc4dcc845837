/*
 * Robot Cockpit service worker: shows the cockpit's Web Push notices and opens their
 * address on a click. It has no fetch handler on purpose: the dashboard and the API always come
 * from the network, so a new build or a stopped robot is never hidden behind a cache.
 *
 * Payload: {title, body, url, tag} (the platform's convention also puts url under data.url).
 */

const TITLE_LIMIT = 100;
const BODY_LIMIT = 400;

self.addEventListener('install', () => {
  // A new worker takes over at once: it holds no state an old page could depend on.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  event.waitUntil(show(read(event.data)));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  event.waitUntil(openOrFocus(safeUrl(url)));
});

/** The payload as an object; a push without one (or unreadable) still shows a generic notice. */
function read(data) {
  if (!data) return {};
  try {
    const value = data.json();
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

function text(value, limit) {
  return typeof value === 'string' ? Array.from(value).slice(0, limit).join('') : '';
}

/** A path on this cockpit or an https address; anything else opens the dashboard. */
function safeUrl(value) {
  if (typeof value !== 'string' || value === '') return '/';
  try {
    const url = new URL(value, self.location.origin);
    if (url.origin === self.location.origin || url.protocol === 'https:') return url.href;
  } catch {
    // Not a URL: fall through to the dashboard.
  }
  return '/';
}

function show(payload) {
  const title = text(payload.title, TITLE_LIMIT) || 'Robot Cockpit';
  const tag = text(payload.tag, 64) || 'robot-cockpit';
  const url = safeUrl(typeof payload.url === 'string' ? payload.url : payload.data && payload.data.url);
  // Push services require every push to show something (userVisibleOnly): always show one.
  return self.registration.showNotification(title, {
    body: text(payload.body, BODY_LIMIT),
    tag,
    renotify: true,
    data: { url },
  });
}

/** Focuses a window already on that address, else turns a dashboard window there, else opens one. */
async function openOrFocus(url) {
  const target = new URL(url, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const exact = windows.find((w) => w.url === target);
  if (exact) return exact.focus();
  const ours = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (ours && new URL(target).origin === self.location.origin && 'navigate' in ours) {
    try {
      const moved = await ours.navigate(target);
      return (moved || ours).focus();
    } catch {
      // An uncontrolled window cannot be navigated by the worker: open a new one instead.
    }
  }
  return self.clients.openWindow(target);
}
