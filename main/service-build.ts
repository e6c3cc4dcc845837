/**
 * The server the systemd unit runs (main/systemd-unit.ts): `main/serve.ts` and everything it
 * imports, bundled into one ES module, `dist/service/serve.js`, that plain `node` runs.
 *
 * Why a bundle: under tsx a start compiles the TypeScript sources first (about 3 s on a quiet
 * machine, far more under load), and even the per-file output of `npm run build:node` spends
 * about 2 s in Node's module loader resolving and reading ~1,100 files. One file starts in well
 * under a second, so systemd's restart (RestartSec plus this start) stays under 2 s;
 * `bench/restart.ts` measures it. `sharp` stays outside (a native addon, loaded from
 * node_modules); the bundle sits two folders below the checkout, as the compiled sources do, so
 * the paths the server derives from its own location (the dashboard in dist/renderer,
 * package.json) are the same.
 *
 * The bundler (esbuild, which tsx already installs) is loaded only when building, never by a
 * server start.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Types only: the bundler itself is loaded when a build runs, never by a server start.
import type * as Esbuild from 'esbuild';

/** The bundle, relative to the checkout. */
export const SERVICE_BUNDLE = join('dist', 'service', 'serve.js');

/** The checkout this module belongs to: the nearest folder up with a package.json (from source, dist/main or dist/service). */
export function checkoutRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** Bundled CommonJS dependencies call require(); an ES module has none until it makes one. */
const REQUIRE_BANNER =
  "import { createRequire as __cockpitRequire } from 'node:module'; const require = __cockpitRequire(import.meta.url);";

/**
 * Builds the bundle (about a second); `outFile` must stay two folders below the checkout. It is
 * written beside and then renamed into place, so a service that systemd restarts meanwhile
 * starts the old bundle or the new one, never half a file.
 */
export async function buildServiceBundle(root: string, outFile: string = join(root, SERVICE_BUNDLE)): Promise<string> {
  const { build } = await import('esbuild');
  const staging = join(dirname(outFile), `.building-${process.pid}`);
  const staged = join(staging, basename(outFile));
  mkdirSync(staging, { recursive: true });
  try {
    // A failed build rejects with the bundler's errors in its message.
    await bundle(build, root, staged);
    renameSync(`${staged}.map`, `${outFile}.map`);
    renameSync(staged, outFile);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return outFile;
}

async function bundle(build: typeof Esbuild.build, root: string, outFile: string): Promise<void> {
  await build({
    entryPoints: [join(root, 'main', 'serve.ts')],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Native or never used by the server: loaded from node_modules if at all.
    external: ['sharp', 'electron', 'esbuild'],
    banner: { js: REQUIRE_BANNER },
    // V8 holds a module's whole source for as long as it runs. Bundled as written, with its
    // dependencies' comments, it was 6.5 MB and held a few characters beyond Latin-1, so V8
    // stored all of it at two bytes a character: 13 MiB of a 123 MiB server at rest. Without
    // whitespace and comments it is 4.4 MB of ASCII, one byte each (108 MiB at rest). Names are
    // kept, so a stack still names its functions; the map below gives the lines.
    minifyWhitespace: true,
    minifySyntax: true,
    // The licences stay with their packages in node_modules, which the bundle is built from.
    legalComments: 'none',
    charset: 'ascii',
    // Kept beside it: `NODE_OPTIONS=--enable-source-maps` maps a fatal stack back to the sources.
    sourcemap: true,
    logLevel: 'silent',
  });
}
