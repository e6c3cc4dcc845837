/**
 * Origin check of the control pipeline (docs/contract.md, "Control pipeline").
 * Browsers always send Origin on cross-site POSTs, so a same-origin Origin is what proves a
 * cookie-carrying request came from our own page (CSRF). Scripts using a bearer token send no
 * Origin and carry no ambient credential, so a missing Origin is fine for them only.
 */

export interface OriginCheckInput {
  /** The Origin header, undefined when absent. */
  origin: string | undefined;
  /** The Host header. */
  host: string | undefined;
  /** Whether the request arrived over TLS (decides the expected scheme). */
  secure: boolean;
  /** Extra origins to accept (ROBOT_ORIGIN). */
  allowedOrigins: readonly string[];
  /** The request authenticated with the owner bearer rather than a cookie session. */
  viaBearer: boolean;
}

export type OriginDecision = { ok: true } | { ok: false; reason: string };

/** Decides whether a control request's Origin is acceptable; `reason` is safe to show. */
export function checkOrigin(input: OriginCheckInput): OriginDecision {
  const { origin, viaBearer } = input;
  if (origin === undefined || origin === '') {
    return viaBearer ? { ok: true } : { ok: false, reason: 'control request without an Origin header refused' };
  }
  // Sandboxed frames, file: pages and some redirects send the literal "null": never ours.
  if (origin === 'null') return { ok: false, reason: 'cross-origin control refused (Origin: null)' };
  const normalised = normaliseOrigin(origin);
  if (normalised === undefined) return { ok: false, reason: 'cross-origin control refused (malformed Origin)' };
  if (input.allowedOrigins.some((o) => normaliseOrigin(o) === normalised)) return { ok: true };
  const own = ownOrigin(input.host, input.secure);
  if (own !== undefined && own === normalised) return { ok: true };
  return { ok: false, reason: 'cross-origin control refused' };
}

/**
 * True when a browser page of another origin sent the request: its Origin is present and is
 * neither the request's own nor an allowed one. A request without Origin was sent by no page
 * (a script, a persona on the robot), so it is judged by its credential alone.
 */
export function fromForeignPage(input: Omit<OriginCheckInput, 'viaBearer'>): boolean {
  if (input.origin === undefined) return false;
  return !checkOrigin({ ...input, viaBearer: true }).ok;
}

/** The Fetch Metadata a browser sends with every request (`Sec-Fetch-*`), and its Referer. */
export interface FetchMetadataInput {
  site: string | undefined;
  mode: string | undefined;
  dest: string | undefined;
  referer: string | undefined;
  allowedOrigins: readonly string[];
}

/**
 * True when the browser says a page of another origin caused a request that carries no Origin:
 * an `<img>`, `<video>`, `<iframe>`, `<script>` or no-cors fetch sends none on a GET. Such a page
 * cannot read the answer, but it can still hold the owner's camera streams and decoder open. A
 * top-level navigation is the user's own doing (a link followed, an address typed) and passes;
 * so does a page at an allowed origin (ROBOT_ORIGIN), which its Referer names and no page can forge.
 * Browsers without Fetch Metadata send no `Sec-Fetch-Site` and are judged by Origin alone.
 */
export function fromForeignPageByFetchMetadata(input: FetchMetadataInput): boolean {
  if (input.site !== 'cross-site' && input.site !== 'same-site') return false;
  if (input.mode === 'navigate' && (input.dest === undefined || input.dest === 'document')) return false;
  const referer = input.referer === undefined ? undefined : normaliseOrigin(input.referer);
  return !(referer !== undefined && input.allowedOrigins.some((o) => normaliseOrigin(o) === referer));
}

/** scheme://host[:port] in canonical form (lower case, default port dropped), or undefined. */
function normaliseOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** The origin this request's Host header names, with the scheme the connection actually uses. */
function ownOrigin(host: string | undefined, secure: boolean): string | undefined {
  if (host === undefined || host === '' || /[/?#@\s\\]/.test(host)) return undefined;
  return normaliseOrigin(`${secure ? 'https' : 'http'}://${host}`);
}
