/**
 * The dashboard shell: built files from dist/renderer with a single-page fallback. The shell
 * itself is `no-cache` so a new build is picked up at once; hashed assets are immutable.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Context } from 'koa';
import { AppError } from '../errors.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.pem': 'application/x-pem-file',
  '.crt': 'application/x-x509-ca-cert',
  '.txt': 'text/plain; charset=utf-8',
};

/** Files answered by the shell besides the build, keyed by path (e.g. /ca.crt, /trust). */
export type ShellExtras = Record<string, (ctx: Context) => Promise<void> | void>;

export interface ShellOptions {
  root: string;
  extras?: ShellExtras;
}

export function createShellHandler(options: ShellOptions): (ctx: Context) => Promise<void> {
  const root = normalize(options.root);
  return async function serveShell(ctx) {
    // Unknown API paths are API 404s, never the dashboard.
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) throw new AppError('NOT_FOUND', `no route ${ctx.method} ${ctx.path}`);
    const extra = options.extras?.[ctx.path];
    if (extra) return extra(ctx);
    const relative = decodeSafe(ctx.path);
    const target = normalize(join(root, relative));
    const inside = target === root || target.startsWith(root + sep);
    if (inside && relative !== '/' && (await isFile(target))) return send(ctx, target, relative);
    // Paths with an extension are real files; a miss is a 404, not the app.
    if (extname(relative) !== '' || !inside) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'not found';
      return;
    }
    const index = join(root, 'index.html');
    if (!(await isFile(index))) {
      ctx.status = 503;
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/plain';
      ctx.body = 'The dashboard is not built yet: run `npm run build:renderer`.';
      return;
    }
    await send(ctx, index, '/index.html');
  };
}

async function send(ctx: Context, file: string, relative: string): Promise<void> {
  const info = await stat(file);
  ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
  ctx.length = info.size;
  ctx.set(
    'Cache-Control',
    relative.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
  ctx.body = createReadStream(file);
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return '/';
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
