import { describe, expect, it } from 'vitest';
import { snapshot, UNREACHABLE } from './testing/snapshots.ts';
import {
  firmwareLabel,
  healthVerdict,
  platformLabel,
  trayMenu,
  trayTooltip,
  type MenuEntry,
  type TrayAction,
} from './tray-model.ts';

describe('healthVerdict', () => {
  it.each([
    ['a healthy robot', {}, 'ok', []],
    ['a latched stop', { stopped: true }, 'stopped', ['latched stop engaged']],
    ['an unreachable daemon', UNREACHABLE, 'stopped', ['daemon unreachable']],
    [
      'a daemon that is up but not running',
      {
        daemon: { presence: 'down' as const, state: 'stopped' },
        problems: { 'daemon:stopped': 'daemon state is stopped' },
      },
      'stopped',
      ['daemon stopped'],
    ],
    [
      'a daemon still connecting',
      { daemon: { presence: 'connecting' as const, reachable: false } },
      'degraded',
      ['daemon connecting'],
    ],
    ['a lost camera', { camera: 'lost' as const }, 'degraded', ['camera lost']],
    ['a camera that is off', { camera: 'off' as const }, 'ok', []],
    ['resource pressure', { pressureWarning: true }, 'degraded', ['resource pressure']],
    [
      'another problem',
      { problems: { 'stream:polling': 'polling REST instead' } },
      'degraded',
      ['polling REST instead'],
    ],
    [
      'a stop and a lost camera',
      { stopped: true, camera: 'lost' as const },
      'stopped',
      ['latched stop engaged', 'camera lost'],
    ],
  ])('%s', (_name, changes, tone, reasons) => {
    expect(healthVerdict(snapshot(changes))).toEqual({ tone, reasons });
  });
});

describe('trayTooltip', () => {
  it('names the simulated robot when all is well, else the reasons', () => {
    expect(trayTooltip(snapshot())).toBe('Robot Cockpit: simulated robot OK');
    expect(trayTooltip(snapshot({ daemon: { simulated: false } }))).toBe('Robot Cockpit: robot OK');
    expect(trayTooltip(snapshot({ ...UNREACHABLE, camera: 'lost' }))).toBe(
      'Robot Cockpit: daemon unreachable, camera lost',
    );
  });

  it("leads with the robot's name once the cockpit has one", () => {
    const named = snapshot();
    const withName = { ...named, health: { ...named.health, identity: { name: 'Desk robot' } } };
    expect(trayTooltip(withName)).toBe('Desk robot: simulated robot OK');
  });
});

function entry(menu: MenuEntry[], action: TrayAction): MenuEntry {
  const found = menu.find((e) => 'action' in e && e.action === action);
  if (!found) throw new Error(`no ${action} entry`);
  return found;
}

describe('trayMenu', () => {
  const base = { openAtLogin: false, remoteUrl: 'https://robot.local:8098' };

  it('lists the items in order, with a status line first', () => {
    const menu = trayMenu({ ...base, snapshot: snapshot() });
    expect(menu.map((e) => (e.type === 'separator' ? '—' : e.label))).toEqual([
      'Robot OK',
      'Open dashboard',
      '—',
      'Wake',
      'Sleep',
      'STOP',
      'Resume',
      'Demo mode',
      'Save last 5 minutes',
      '—',
      'Show pairing QR…',
      'Copy remote address (https://robot.local:8098)',
      '—',
      'Start at login',
      'Quit Robot Cockpit',
    ]);
  });

  it('offers wake and sleep on a connected robot, resume only when latched', () => {
    const menu = trayMenu({ ...base, snapshot: snapshot() });
    expect(entry(menu, 'wake')).toMatchObject({ enabled: true });
    expect(entry(menu, 'sleep')).toMatchObject({ enabled: true });
    expect(entry(menu, 'resume')).toMatchObject({ enabled: false });
  });

  it('while latched: motion greyed out, STOP still there and marked, resume offered', () => {
    const menu = trayMenu({ ...base, snapshot: snapshot({ stopped: true }) });
    expect(menu[0]).toEqual({ type: 'status', label: 'Stopped: latched stop engaged' });
    expect(entry(menu, 'wake')).toMatchObject({ enabled: false });
    expect(entry(menu, 'sleep')).toMatchObject({ enabled: false });
    expect(entry(menu, 'stop')).toMatchObject({ label: 'STOP (latched)', enabled: true });
    expect(entry(menu, 'resume')).toMatchObject({ enabled: true });
  });

  it('with the daemon down: no wake or sleep, but the stop and demo mode stay available', () => {
    const menu = trayMenu({ ...base, snapshot: snapshot(UNREACHABLE) });
    expect(entry(menu, 'wake')).toMatchObject({ enabled: false });
    expect(entry(menu, 'stop')).toMatchObject({ enabled: true });
    expect(entry(menu, 'demo')).toMatchObject({ enabled: true });
  });

  it('checks demo mode and start at login from their states', () => {
    const menu = trayMenu({ ...base, openAtLogin: true, snapshot: snapshot({ demo: true }) });
    expect(entry(menu, 'demo')).toMatchObject({ type: 'checkbox', checked: true });
    expect(entry(menu, 'login')).toMatchObject({ type: 'checkbox', checked: true, enabled: true });
  });

  it('greys out what the platform or network cannot do', () => {
    const menu = trayMenu({ snapshot: snapshot(), openAtLogin: undefined, remoteUrl: undefined });
    expect(entry(menu, 'login')).toMatchObject({
      label: 'Start at login (macOS and Windows only)',
      enabled: false,
      checked: false,
    });
    expect(entry(menu, 'copy-remote')).toMatchObject({ label: 'Copy remote address (no LAN address)', enabled: false });
  });
});

describe('platform section', () => {
  const base = { openAtLogin: false, remoteUrl: undefined };
  const withPlatform = (platform: Parameters<typeof platformLabel>[0]) => ({ ...snapshot(), platform });

  it('is absent without a platform client', () => {
    expect(
      trayMenu({ ...base, snapshot: snapshot() }).some((e) => e.type !== 'separator' && e.label.startsWith('Platform')),
    ).toBe(false);
  });

  it('shows the link state and lets an enrolled robot connect or disconnect', () => {
    const menu = trayMenu({
      ...base,
      snapshot: withPlatform({ enrolled: true, connected: true, online: true, halted: false }),
    });
    expect(menu).toContainEqual({ type: 'status', label: 'Platform: online' });
    expect(menu).toContainEqual({
      type: 'checkbox',
      action: 'platform-link',
      label: 'Connected to the platform',
      checked: true,
      enabled: true,
    });
    expect(menu.some((e) => e.type === 'action' && e.action === 'platform-settings')).toBe(true);
  });

  it('cannot link a robot that is not enrolled, and says when the token was refused', () => {
    const menu = trayMenu({
      ...base,
      snapshot: withPlatform({ enrolled: false, connected: false, online: false, halted: false }),
    });
    expect(menu).toContainEqual(expect.objectContaining({ action: 'platform-link', enabled: false }));
    expect(platformLabel({ enrolled: true, connected: true, online: false, halted: true })).toMatch(/re-enrol/);
    // The first refusal is shown at once, before any halt; a rotation names the way out.
    expect(platformLabel({ enrolled: true, connected: true, online: true, halted: false, token: 'refused' })).toMatch(
      /token refused/,
    );
    expect(platformLabel({ enrolled: true, connected: true, online: false, halted: true, token: 'rotated' })).toMatch(
      /rotated .*adopt/,
    );
    expect(platformLabel({ enrolled: true, connected: true, online: false, halted: true, token: 'removed' })).toMatch(
      /removed/,
    );
    expect(platformLabel({ enrolled: true, connected: false, online: false, halted: false })).toMatch(
      /local control only/,
    );
  });

  it('adds a line for an update that waits for the operator or was just installed', () => {
    const fw = (state: string, installAllowed = false) => ({ state, staged: '0.2.0', currentVersion: '0.1.0', installAllowed });
    expect(firmwareLabel(undefined)).toBeNull();
    expect(firmwareLabel(fw('up_to_date'))).toBeNull();
    expect(firmwareLabel(fw('staged'))).toBe('Update 0.2.0 ready (allow it in Platform settings)');
    expect(firmwareLabel(fw('staged', true))).toBe('Update 0.2.0 waits for an idle robot');
    expect(firmwareLabel({ ...fw('applied'), currentVersion: '0.2.0' })).toBe('Update 0.2.0 installed');
    const menu = trayMenu({
      ...base,
      snapshot: withPlatform({ enrolled: true, connected: true, online: true, halted: false, firmware: fw('staged') }),
    });
    expect(menu).toContainEqual({ type: 'status', label: 'Update 0.2.0 ready (allow it in Platform settings)' });
  });
});
