/**
 * A small multipart/form-data reader for the one upload route. It works on a fully buffered
 * body, which the route caps at 25 MiB before it gets here.
 */

export interface Part {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | null {
  const match = /multipart\/form-data.*?;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

function dispositionParam(disposition: string, key: string): string | null {
  const match =
    new RegExp(`(?:^|;)\\s*${key}="([^"]*)"`, 'i').exec(disposition) ??
    new RegExp(`(?:^|;)\\s*${key}=([^;\\s]+)`, 'i').exec(disposition);
  return match ? (match[1] ?? null) : null;
}

export function parseMultipart(body: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const afterDelim = start + delimiter.length;
    if (body.subarray(afterDelim, afterDelim + 2).toString() === '--') break;
    const headerStart = afterDelim + 2;
    const headerEnd = body.indexOf('\r\n\r\n', headerStart);
    if (headerEnd < 0) break;
    const next = body.indexOf(delimiter, headerEnd + 4);
    if (next < 0) break;
    const headers = parseHeaders(body.subarray(headerStart, headerEnd).toString('utf8'));
    const disposition = headers['content-disposition'] ?? '';
    const name = dispositionParam(disposition, 'name');
    if (name !== null) {
      const data = body.subarray(headerEnd + 4, next - 2);
      parts.push({
        name,
        filename: dispositionParam(disposition, 'filename'),
        contentType: headers['content-type'] ?? null,
        data,
      });
    }
    start = next;
  }
  return parts;
}
