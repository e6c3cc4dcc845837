/**
 * Reading the body of another program's answer with a ceiling: a model, transcription or bot
 * server, a rover. Each may send any length within its request's deadline; the cockpit holds at
 * most `maxBytes` of it and stops reading there (http-body.test.ts).
 * platform-client/body-read.ts is the same reader for the platform client, which may not import
 * server/ (docs/architecture.md, "Folders and the direction of imports").
 */

/** The answer ran past its ceiling; the message says so in words the caller can pass on. */
export class BodyTooLong extends Error {
  /** The ceiling in words ("4 MiB"). */
  readonly limit: string;
  constructor(maxBytes: number) {
    const limit = sizeInWords(maxBytes);
    super(`the answer is longer than ${limit}`);
    this.name = 'BodyTooLong';
    this.limit = limit;
  }
}

function sizeInWords(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** The body's bytes, or null when it is longer than `maxBytes` (the rest is not read). */
export async function readBytesUpTo(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get('content-length'));
  const body = response.body;
  if (!body) return new Uint8Array(0);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    return null;
  }
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) return null;
      parts.push(value);
    }
  } finally {
    // Leaving early (too long, or a read that threw) must not leave the socket open.
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(parts, size);
}

/** The body as text; throws BodyTooLong past `maxBytes`. */
export async function readTextUpTo(response: Response, maxBytes: number): Promise<string> {
  const bytes = await readBytesUpTo(response, maxBytes);
  if (bytes === null) throw new BodyTooLong(maxBytes);
  return new TextDecoder().decode(bytes);
}

/**
 * The body parsed as JSON, or undefined when it is not JSON (no JSON text parses to undefined);
 * throws BodyTooLong past `maxBytes`.
 */
export async function readJsonUpTo(response: Response, maxBytes: number): Promise<unknown> {
  const text = await readTextUpTo(response, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
