/**
 * Method parameters as the bot API takes them, in any of its four documented ways: the URL's
 * query string, application/x-www-form-urlencoded, application/json, or multipart/form-data
 * (which is how files are uploaded).
 */
import type { IncomingMessage } from 'node:http';
import { boundaryOf, parseMultipart } from '../../../sim/multipart.ts';

export interface Params {
  text(name: string): string | undefined;
  int(name: string): number | undefined;
  file(name: string): Buffer | undefined;
}

export async function readParams(req: IncomingMessage): Promise<Params> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  const values = new Map<string, string>();
  const files = new Map<string, Buffer>();
  new URL(req.url ?? '/', 'http://x').searchParams.forEach((v, k) => values.set(k, v));
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json') && body.length > 0) {
    const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    for (const [k, v] of Object.entries(json)) values.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    new URLSearchParams(body.toString('utf8')).forEach((v, k) => values.set(k, v));
  } else if (type.startsWith('multipart/form-data')) {
    for (const part of parseMultipart(body, boundaryOf(type) ?? '')) {
      if (part.filename !== null) files.set(part.name, Buffer.from(part.data));
      else values.set(part.name, part.data.toString('utf8'));
    }
  }
  return {
    text: (name) => values.get(name),
    int(name) {
      const raw = values.get(name);
      return raw !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
    },
    file: (name) => files.get(name),
  };
}
