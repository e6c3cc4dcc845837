/**
 * The operator's firmware choices, kept across restarts: the channel the robot follows and the
 * consent to install a staged bundle once the robot is idle (off until the operator turns it
 * on). An unreadable file is set aside and reported, never silently replaced (docs/architecture.md, "Configuration and persistence").
 */
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.ts';
import { CHANNEL_PATTERN } from '../limits.ts';
import type { PlatformLog } from '../types.ts';

export interface FirmwarePrefs {
  channel: string;
  installAllowed: boolean;
}

export interface FirmwarePrefsStore {
  /** The stored choices over the defaults; a corrupt file is set aside and the defaults used. */
  load(): Promise<FirmwarePrefs>;
  save(prefs: FirmwarePrefs): Promise<void>;
}

const FILE = 'prefs.json';

function parse(text: string, defaults: FirmwarePrefs): FirmwarePrefs | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { channel, installAllowed } = raw as Record<string, unknown>;
  if (channel !== undefined && (typeof channel !== 'string' || !CHANNEL_PATTERN.test(channel))) return null;
  if (installAllowed !== undefined && typeof installAllowed !== 'boolean') return null;
  return { channel: channel ?? defaults.channel, installAllowed: installAllowed ?? defaults.installAllowed };
}

/** Prefs in `<root>/prefs.json` (root is the firmware folder of the data dir). */
export function createFirmwarePrefsStore(root: string, defaults: FirmwarePrefs, log: PlatformLog): FirmwarePrefsStore {
  const file = join(root, FILE);
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...defaults };
        // A file that cannot be read (a folder in the way, no permission, a failing disk) must not
        // keep the console from starting: the defaults hold (no install consent).
        log.warn('firmware preferences could not be read; defaults used', { file, error: String(error) });
        return { ...defaults };
      }
      const prefs = parse(text, defaults);
      if (prefs) return prefs;
      const aside = `${file}.corrupt-${Date.now()}`;
      try {
        await rename(file, aside);
        log.warn('firmware preferences were unreadable; set aside, defaults used', { file: aside });
      } catch (error) {
        log.warn('firmware preferences were unreadable and could not be set aside; defaults used', {
          file,
          error: String(error),
        });
      }
      return { ...defaults };
    },
    save: (prefs) => writeFileAtomic(file, `${JSON.stringify(prefs, null, 2)}\n`),
  };
}
