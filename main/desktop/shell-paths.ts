/**
 * Where the desktop app finds its own command line and files, which differ between a checkout
 * run by `npm start` (electron dist/main/electron/main.js --sim) and a packaged app.
 */
import { dirname, join } from 'node:path';
import type { Tone } from './tray-model.ts';

/** Flags of `npm run serve` the desktop app honours (README.md, "Commands"); `--sim` takes no value. */
const VALUE_FLAGS = new Set(['--robot', '--daemon', '--host', '--port', '--data-dir']);

/**
 * The cockpit flags in Electron's argv. A checkout run has the script path as argv[1], a
 * packaged app does not. Chromium and desktop launchers add switches of their own
 * (--no-sandbox, --ozone-platform=wayland, macOS's -psn_…), which are left to Chromium rather
 * than stopping the start as unknown flags.
 */
export function cockpitArgv(argv: readonly string[], packaged: boolean): string[] {
  const args = argv.slice(packaged ? 1 : 2);
  const kept: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (name === '--sim') kept.push(arg);
    else if (VALUE_FLAGS.has(name)) {
      kept.push(arg);
      const value = args[i + 1];
      if (!arg.includes('=') && value !== undefined) {
        kept.push(value);
        i += 1;
      }
    }
  }
  return kept;
}

/**
 * The folder of tray and app icons. Packaged, electron-builder copies assets/ beside the asar
 * as an extra resource (electron-builder.yml), since a tray icon is a file the OS reads; from a
 * checkout it is assets/ at the root, three levels above dist/main/electron/main.js.
 */
export function assetsDir(options: { packaged: boolean; resourcesPath: string; mainDir: string }): string {
  return options.packaged
    ? join(options.resourcesPath, 'assets')
    : join(dirname(dirname(dirname(options.mainDir))), 'assets');
}

/** The 16 px tray icon of a tone; Electron picks the `@2x` file beside it on high-density screens. */
export function trayIconFile(dir: string, tone: Tone): string {
  return join(dir, `tray-${tone}.png`);
}

export function appIconFile(dir: string): string {
  return join(dir, 'icon.png');
}
