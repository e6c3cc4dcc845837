/**
 * electron-builder.yml, checked without packaging (electron-builder downloads its tools from
 * GitHub): loaded by electron-builder's own config loader, validated against its own schema,
 * then held to what the desktop app expects of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, PRODUCT_NAME } from './app-identity.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

type Config = Awaited<ReturnType<typeof getConfig>>;
let config: Config;

beforeAll(async () => {
  config = await getConfig(ROOT, join(ROOT, 'electron-builder.yml'), null);
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const head = readFileSync(file).subarray(0, 24);
  expect(head.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [head.readUInt32BE(16), head.readUInt32BE(20)];
}

/** A target list however it is written (a name, a list of names or of {target}). */
function targets(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((t) => (typeof t === 'string' ? t : (t as { target: string }).target));
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // The same check refuses a misspelt key, so the pass above means something.
    const misspelt = { ...config, linux: { ...config.linux, targets: ['AppImage'] } } as Config;
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/configuration.linux/);
  });

  it('names the app as the main process does, and pins the Electron of package.json', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(config.electronVersion).toBe(pkg.optionalDependencies?.['electron']);
  });

  it('builds AppImage and deb for Linux, dmg for macOS and nsis for Windows', () => {
    expect(targets(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(targets(config.mac?.target)).toEqual(['dmg']);
    expect(targets(config.win?.target)).toEqual(['nsis']);
  });

  it('packages the compiled app and writes installers outside it', () => {
    // The loader normalises `files` to [{filter: [...]}].
    const files = (Array.isArray(config.files) ? config.files : [config.files]).flatMap((f) =>
      typeof f === 'string' ? [f] : [(f as { filter?: string | string[] } | null)?.filter ?? []].flat(),
    );
    expect(files).toEqual(['dist/**/*', '!dist/service/**', 'package.json']);
    expect(config.directories?.output).toBe('release');
    // package.json's main is the compiled main/electron/main.ts, inside the packaged files.
    expect(pkg.main).toBe('dist/main/electron/main.js');
  });

  it('uses the committed icons: a 512 px app icon, and 16/32 px tray icons beside the asar', () => {
    for (const platform of [config.linux, config.mac, config.win]) expect(platform?.icon).toBe('assets/icon.png');
    expect(pngSize(join(ROOT, 'assets', 'icon.png'))).toEqual([512, 512]);
    for (const tone of ['ok', 'degraded', 'stopped']) {
      expect(pngSize(join(ROOT, 'assets', `tray-${tone}.png`))).toEqual([16, 16]);
      expect(pngSize(join(ROOT, 'assets', `tray-${tone}@2x.png`))).toEqual([32, 32]);
    }
    expect(config.extraResources).toEqual([{ from: 'assets', to: 'assets', filter: ['icon.png', 'tray-*.png'] }]);
  });

  it('is reached through `npm run dist`, which builds first', () => {
    expect(pkg.scripts['dist']).toMatch(/^npm run build && electron-builder --config electron-builder\.yml$/);
    expect(existsSync(join(ROOT, 'main', 'electron', 'main.ts'))).toBe(true);
  });
});
