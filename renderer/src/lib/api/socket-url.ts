/** The state socket lives on the same origin as the dashboard; only the scheme changes. */
export function stateSocketUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  // Browsers cannot set headers on a WebSocket handshake, so the credential rides in the query.
  return `${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`;
}
