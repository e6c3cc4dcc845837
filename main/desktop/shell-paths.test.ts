import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appIconFile, assetsDir, cockpitArgv, trayIconFile } from './shell-paths.ts';

describe('cockpitArgv', () => {
  it('drops the executable and, from a checkout, the script path', () => {
    expect(cockpitArgv(['/usr/bin/electron', 'dist/main/electron/main.js', '--sim'], false)).toEqual(['--sim']);
    expect(cockpitArgv(['/opt/Robot Cockpit/robot-cockpit', '--sim'], true)).toEqual(['--sim']);
  });

  it('keeps the serve flags with their values, in either spelling', () => {
    expect(
      cockpitArgv(
        ['exe', '--daemon', 'http://10.0.0.2:8000', '--port=9000', '--data-dir', '/tmp/d', '--robot', 'desktop'],
        true,
      ),
    ).toEqual(['--daemon', 'http://10.0.0.2:8000', '--port=9000', '--data-dir', '/tmp/d', '--robot', 'desktop']);
  });

  it('leaves Chromium and launcher switches alone', () => {
    expect(
      cockpitArgv(
        ['exe', '--no-sandbox', '--ozone-platform=wayland', '-psn_0_12345', '--sim', '--enable-logging'],
        true,
      ),
    ).toEqual(['--sim']);
  });
});

describe('asset paths', () => {
  it('finds assets/ at the checkout root, or beside the asar when packaged', () => {
    expect(
      assetsDir({ packaged: false, resourcesPath: '/x', mainDir: join('/repo', 'dist', 'main', 'electron') }),
    ).toBe(join('/repo', 'assets'));
    expect(assetsDir({ packaged: true, resourcesPath: '/opt/app/resources', mainDir: '/ignored' })).toBe(
      join('/opt/app/resources', 'assets'),
    );
  });

  it('names one tray icon per tone and the app icon', () => {
    expect(trayIconFile('/a', 'degraded')).toBe(join('/a', 'tray-degraded.png'));
    expect(appIconFile('/a')).toBe(join('/a', 'icon.png'));
  });
});
