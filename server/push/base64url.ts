/** Strict base64url (RFC 4648 §5) as push subscriptions and VAPID keys use it: no padding, no '+' or '/'. */

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The decoded bytes, or undefined when `text` is not canonical unpadded base64url. */
export function decodeBase64Url(text: string): Buffer | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Node ignores stray trailing bits; re-encoding catches a value that is not canonical.
  return bytes.toString('base64url') === text ? bytes : undefined;
}
