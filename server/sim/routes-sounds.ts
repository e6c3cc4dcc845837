/** /api/media/sounds: uploaded sound files (docs/daemon.md, "Media"). */
import { basename, extname } from 'node:path';
import { looksLikeAudio } from './audio-file.ts';
import type { SimContext } from './context.ts';
import { DetailError, route, type Route, type SimRequest } from './http-kit.ts';
import { boundaryOf, parseMultipart, type Part } from './multipart.ts';
import { missing, ValidationError } from './pydantic.ts';
import { ALLOWED_SOUND_EXTENSIONS, MAX_SOUND_UPLOAD_BYTES } from './sounds.ts';

function filePart(req: SimRequest): Part {
  const boundary = boundaryOf(req.headers['content-type']);
  const part = boundary ? parseMultipart(req.body, boundary).find((p) => p.name === 'file') : undefined;
  if (!part || part.filename === null) throw new ValidationError([missing(['body', 'file'])]);
  return part;
}

function uploadName(part: Part): string {
  if (!part.filename) throw new DetailError(400, 'Filename is required');
  // Path traversal is cut off the way Path(name).name does it.
  const name = basename(part.filename.replace(/\\/g, '/'));
  if (!name || name === '.' || name === '..') throw new DetailError(400, 'Invalid filename');
  if (!ALLOWED_SOUND_EXTENSIONS.includes(extname(name).toLowerCase())) {
    throw new DetailError(400, `Unsupported file extension; allowed: ${ALLOWED_SOUND_EXTENSIONS.join(', ')}`);
  }
  return name;
}

export function soundRoutes(ctx: SimContext): Route[] {
  return [
    route(
      'POST',
      '/api/media/sounds/upload',
      (req) => {
        const part = filePart(req);
        const name = uploadName(part);
        if (!looksLikeAudio(extname(name).toLowerCase(), part.data))
          throw new DetailError(400, 'Unsupported or invalid audio file');
        return { json: { status: 'ok', path: ctx.sounds.store(name, part.data) } };
      },
      { maxBody: MAX_SOUND_UPLOAD_BYTES },
    ),
    route('GET', '/api/media/sounds', () => ({ json: { files: ctx.sounds.list() } })),
    route('DELETE', '/api/media/sounds/{filename}', (req) => {
      const name = req.params.filename ?? '';
      if (!name || name.includes('/') || name.includes('\\') || basename(name) !== name)
        throw new DetailError(400, 'Invalid filename');
      if (!ctx.sounds.remove(name)) throw new DetailError(404, `File '${name}' not found`);
      return { json: { status: 'ok' } };
    }),
  ];
}
