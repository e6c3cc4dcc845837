/**
 * Shared start-up of every entry (serve, start, Electron): config from flags, environment and
 * `<data dir>/settings.json`, the data folder, and the owner token. The only module that reads
 * process.env (docs/architecture.md, "Configuration and persistence").
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataDir, ensureOwnerToken, loadConfig, type Config, type Flags } from '../server/index.ts';

export interface Boot {
  config: Config;
  ownerToken: string;
}

/** Settings are a few lines; past this the file is something else, and reading it whole stalls the start. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

export function readSettings(dataDir: string): Record<string, unknown> {
  const file = join(dataDir, 'settings.json');
  let text: string;
  try {
    // A pipe or a device (a link to /dev/zero) is read forever, on the thread that draws the
    // window: it must be refused before the first byte, as the stores do (server/store/read-stored.ts).
    const info = statSync(file);
    if (!info.isFile() && !info.isDirectory()) throw new Error('not a regular file');
    if (info.size > MAX_SETTINGS_BYTES) throw new Error(`${info.size} bytes, over the ${MAX_SETTINGS_BYTES} it may hold`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    // A file that is there and cannot be read (a folder, no permission) would drop the operator's
    // settings without a word, ROBOT_HOST=127.0.0.1 among them: the cockpit would then listen on
    // every interface.
    throw new Error(`${file} could not be read (${(error as Error).message}); fix or move it aside`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new Error(`${file} is not a JSON object; fix or move it aside`);
}

export async function boot(flags: Flags, env: Record<string, string | undefined> = process.env): Promise<Boot> {
  const dataDir = flags.dataDir ?? env['ROBOT_DATA_DIR'] ?? defaultDataDir(process.platform, homeOf(env), env);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const config = loadConfig({ env, flags, settings: readSettings(dataDir) });
  const ownerToken = await ensureOwnerToken(config.dataDir, config.token);
  return { config, ownerToken };
}

function homeOf(env: Record<string, string | undefined>): string {
  return env['HOME'] ?? env['USERPROFILE'] ?? '.';
}
