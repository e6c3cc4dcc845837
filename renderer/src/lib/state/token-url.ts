/**
 * The owner token reaches the dashboard once in its address (`/?token=…` or `/#token=…`, the
 * form `npm start` prints and the QR code carries). It is read, then removed from the address so
 * it does not linger in history, bookmarks or a screenshot of the address bar.
 */
export interface TokenInUrl {
  token: string | null;
  /** The address without the token, or null when there was nothing to remove. */
  cleanedUrl: string | null;
}

export function extractToken(href: string): TokenInUrl {
  const url = new URL(href);
  const query = url.searchParams.get('token');
  const hashParams = new URLSearchParams(url.hash.replace(/^#/, ''));
  const fromHash = hashParams.get('token');
  if (query === null && fromHash === null) return { token: null, cleanedUrl: null };

  url.searchParams.delete('token');
  // A page's hash (`#/agent`) is not a parameter list: it is rewritten only when it held the token.
  if (fromHash !== null) {
    hashParams.delete('token');
    const rest = hashParams.toString();
    url.hash = rest === '' ? '' : `#${rest}`;
  }
  const token = (query ?? fromHash ?? '').trim();
  return { token: token === '' ? null : token, cleanedUrl: `${url.pathname}${url.search}${url.hash}` };
}
