/** The state socket lives on the same origin as the dashboard; only the scheme changes. */
export function stateSocketUrl(location: { protocol: string; host: string }, token: string | null): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  // Browsers cannot set headers on a WebSocket handshake, so the token rides in the query. A
  // passkey session needs nothing here: the browser sends its session cookie with the handshake.
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`;
  return `${scheme}://${location.host}/ws${query}`;
}
