/**
 * The dashboard shell: built files from dist/renderer with a single-page fallback. The shell
 * itself is `no-cache` so a new build is picked up at once; hashed assets are immutable. The
 * shell names the robot kind in a `<meta name="robot-kind">` tag, so the page mounts the right
 * dashboard without first asking /api/health (renderer/src/main.ts): one round trip less before
 * the first live state.
 */
import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * Where the built dashboard is, for either server: dist/renderer of this checkout, whether this
 * file runs from source (server/http/) or compiled (dist/server/http/, whose ../../renderer is the
 * build). From source without a build, the renderer's own folder, which has index.html.
 */
export function defaultShellRoot(): string {
  const candidates = ['../../dist/renderer', '../../renderer'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  return candidates.find((p) => existsSync(join(p, 'index.html'))) ?? candidates[0]!;
}

/** Files answered by the shell besides the build, keyed by path (e.g. /ca.crt, /trust). */
export type ShellExtras = Record<string, (ctx: Context) => Promise<void> | void>;

export interface ShellOptions {
  root: string;
  extras?: ShellExtras;
  /** Which dashboard the page mounts, named in the shell (renderer/src/main.ts reads it). */
  robotKind: 'desktop' | 'wheeled';
}

/** index.html with the robot kind's tag, rebuilt only when the file changes (a new build). */
function shellPage(kind: ShellOptions['robotKind']): (file: string) => Promise<Buffer> {
  let cached: { mtimeMs: number; size: number; body: Buffer } | undefined;
  return async (file) => {
    const info = await stat(file);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.body;
    const html = await readFile(file, 'utf8');
    const tag = `<meta name="robot-kind" content="${kind}">`;
    const body = Buffer.from(html.includes('</head>') ? html.replace('</head>', `${tag}</head>`) : tag + html);
    cached = { mtimeMs: info.mtimeMs, size: info.size, body };
    return body;
  };
}

export function createShellHandler(options: ShellOptions): (ctx: Context) => Promise<void> {
  const root = normalize(options.root);
  const page = shellPage(options.robotKind);
  return async function serveShell(ctx) {
    // Unknown API paths are API 404s, never the dashboard.
    if (ctx.path === '/api' || ctx.path.startsWith('/api/'))
      throw new AppError('NOT_FOUND', `no route ${ctx.method} ${ctx.path}`);
    const extra = options.extras?.[ctx.path];
    if (extra) return extra(ctx);
    const relative = decodeSafe(ctx.path);
    const target = normalize(join(root, relative));
    const inside = target === root || target.startsWith(root + sep);
    if (inside && relative !== '/' && relative !== '/index.html' && (await isFile(target)))
      return send(ctx, target, relative);
    // Paths with an extension are real files; a miss is a 404, not the app.
    if ((extname(relative) !== '' && relative !== '/index.html') || !inside) {
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
    ctx.type = TYPES['.html'] as string;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await page(index);
  };
}

async function send(ctx: Context, file: string, relative: string): Promise<void> {
  const info = await stat(file);
  ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
  ctx.length = info.size;
  ctx.set('Cache-Control', relative.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
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
