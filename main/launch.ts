/**
 * Decisions `npm start` makes before the cockpit runs: Electron or headless, real daemon or
 * simulator, and whether the dashboard needs building. Plain functions, tested without spawning.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Path of the Electron binary, or undefined when the optional download did not happen. */
export function electronBinary(): string | undefined {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export function hasDisplay(platform: NodeJS.Platform, env: Record<string, string | undefined>): boolean {
  if (platform !== 'linux') return true;
  return Boolean(env['DISPLAY'] || env['WAYLAND_DISPLAY']);
}

/** True when something answering like the robot daemon is at the URL. */
export async function daemonAnswers(url: string, timeoutMs = 1200): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/daemon/status`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json()) as { type?: string };
    return body.type === 'daemon_status';
  } catch {
    return false;
  }
}

/** Newest modification time under a folder (the renderer sources). */
export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function rendererIsStale(root: string): boolean {
  const index = join(root, 'dist', 'renderer', 'index.html');
  if (!existsSync(index)) return true;
  return newestMtime(join(root, 'renderer')) > statSync(index).mtimeMs;
}

export function buildRenderer(root: string): void {
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('building the dashboard failed (npm run build:renderer)');
}

/** Opens a URL in the desktop's browser; silently does nothing without one. */
export function openBrowser(url: string, platform: NodeJS.Platform): void {
  const [cmd, args] =
    platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser launcher: the printed URL is enough.
  }
}
