/** Test helper: POST to a fake model server and read the raw SSE frames it writes. */

export async function rawFrames(url: string, body: unknown, headers: Record<string, string> = {}): Promise<string[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`fake answered ${res.status}: ${await res.text()}`);
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((f) => `${f}\n\n`);
}

/** Turns frames back into one body, in chunks of `size` bytes (to exercise split lines). */
export function chunked(frames: readonly string[], size: number): AsyncIterable<Uint8Array> {
  const bytes = new TextEncoder().encode(frames.join(''));
  return (async function* () {
    for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
  })();
}
