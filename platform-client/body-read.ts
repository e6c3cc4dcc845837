/**
 * Reading an answer's body with a ceiling. The platform, or whatever answers at its address, may
 * send any length; the client holds at most `maxBytes` of it and stops reading there, so one
 * answer cannot fill the robot's memory within a request's 15 s bound (body-read.test.ts).
 * server/http-body.ts is the same reader for the server, which this library may not import
 * (README.md).
 */

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
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * The body as JSON, or undefined when it is not JSON, cannot be read, or is longer than
 * `maxBytes` (the rest is not read): for an error answer, and a JSON answer where a stream was
 * asked for, which `response.json()` would read whole however long it is.
 */
export async function readJsonUpTo(response: Response, maxBytes: number): Promise<unknown> {
  try {
    const bytes = await readBytesUpTo(response, maxBytes);
    return bytes === null ? undefined : (JSON.parse(new TextDecoder().decode(bytes)) as unknown);
  } catch {
    return undefined;
  }
}
