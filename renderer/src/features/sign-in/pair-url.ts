/**
 * A pairing link opens the dashboard with `?pair=<code>` (POST /api/console/auth/pairing). The
 * code is read once and removed from the address at once: it is single-use, and must not stay
 * in history or in a screenshot of the address bar.
 */
export interface PairCodeInUrl {
  code: string | null;
  /** The address without the code, or null when there was nothing to remove. */
  cleanedUrl: string | null;
}

export function extractPairCode(href: string): PairCodeInUrl {
  const url = new URL(href);
  if (!url.searchParams.has('pair')) return { code: null, cleanedUrl: null };
  const code = (url.searchParams.get('pair') ?? '').trim();
  url.searchParams.delete('pair');
  return { code: code === '' ? null : code, cleanedUrl: `${url.pathname}${url.search}${url.hash}` };
}

/** Takes the code from this page's address, removing it there. */
export function takePairCode(): string | null {
  const { code, cleanedUrl } = extractPairCode(window.location.href);
  if (cleanedUrl !== null) window.history.replaceState(window.history.state, '', cleanedUrl);
  return code;
}
