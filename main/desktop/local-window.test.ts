/**
 * The desktop shell's server side against a real cockpit (composeCockpit with its simulator),
 * without Electron: the window's owner session resolves as 'local-window', the tray's actions
 * are the route's control functions with that credential, and the tray and alerts read the
 * latch from the same services the dashboard shows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '../../server/index.ts';
import { composeCockpit, type ComposedCockpit } from '../compose.ts';
import { readSnapshot } from './cockpit-view.ts';
import { createHealthAlerts } from './health-alerts.ts';
import { runTrayAction, type TrayDeps } from './tray-actions.ts';
import { healthVerdict, trayMenu } from './tray-model.ts';
import { createWindowSession, SESSION_COOKIE_NAME } from './window-session.ts';

let composed: ComposedCockpit;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'local-window-'));
  composed = await composeCockpit({
    flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
    env: {
      ROBOT_TOKEN: 'local-window-test-owner-token-0123',
      ROBOT_HTTPS_PORT: '0',
      ROBOT_TRACK_AUTOSTART: '0',
      ROBOT_CAMERA: 'off',
    },
    log: () => createLog({ sink: () => {} }),
  });
});

afterAll(async () => {
  await composed?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function asWindow(path: string, cookie: string, method = 'GET'): Promise<Response> {
  return fetch(`${composed.cockpit.url}${path}`, {
    method,
    // The window's requests: the session cookie, and the dashboard's own origin on POSTs (the
    // window says localhost; fetch cannot set Host, so here the origin matches 127.0.0.1).
    headers: { cookie: `${SESSION_COOKIE_NAME}=${cookie}`, origin: composed.cockpit.url },
  });
}

function trayDeps(reports: string[]): TrayDeps {
  const none = () => undefined;
  return {
    control: composed.cockpit.features.control,
    openDashboard: none,
    openPairing: none,
    openPlatformSettings: none,
    copyRemoteAddress: none,
    setOpenAtLogin: none,
    quit: none,
    report: (title, message) => reports.push(`${title}: ${message}`),
  };
}

describe('the window session', () => {
  it('is an owner session the cockpit reports as the desktop window, until it is ended', async () => {
    const installed: string[] = [];
    const session = createWindowSession({
      create: (ttl) => composed.cockpit.createLocalWindowSession(ttl),
      destroy: (id) => composed.cockpit.access.sessions.destroy(id),
      install: async (s) => void installed.push(s.id),
      reload: async () => undefined,
      windowBusy: () => true,
      onError: (e) => {
        throw e;
      },
    });
    await session.start();
    const cookie = installed[0] as string;
    const status = (await (await asWindow('/api/auth/status', cookie)).json()) as {
      who: string;
      sessionExpiresAt: number;
    };
    expect(status.who).toBe('local-window');
    expect(status.sessionExpiresAt).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const resumed = await asWindow('/api/console/resume', cookie, 'POST');
    expect(resumed.status).toBe(200);
    expect(composed.cockpit.features.events.recent(1)[0]).toMatchObject({
      action: 'resume',
      credential: 'local-window',
    });

    await session.stop();
    const after = (await (await asWindow('/api/auth/status', cookie)).json()) as { who: string };
    expect(after.who).not.toBe('local-window');
    expect((await asWindow('/api/console/resume', cookie, 'POST')).status).toBe(401);
  });
});

describe('the tray against the cockpit', () => {
  it('latches the stop as local-window, shows it, stays quiet about it, and resumes', async () => {
    const reports: string[] = [];
    const alerts = createHealthAlerts();
    alerts.observe(readSnapshot(composed.cockpit), Date.now());

    await runTrayAction('stop', trayDeps(reports));
    const stopped = readSnapshot(composed.cockpit);
    expect(healthVerdict(stopped).tone).toBe('stopped');
    expect(trayMenu({ snapshot: stopped, openAtLogin: undefined, remoteUrl: undefined })).toContainEqual({
      type: 'action',
      action: 'resume',
      label: 'Resume',
      enabled: true,
    });
    expect(composed.cockpit.features.events.recent(1)[0]).toMatchObject({ action: 'stop', credential: 'local-window' });
    // The desktop app's own stop is not news to its operator.
    expect(alerts.observe(stopped, Date.now()).map((n) => n.tag)).not.toContain('stop');

    await runTrayAction('resume', trayDeps(reports));
    expect(healthVerdict(readSnapshot(composed.cockpit)).reasons).not.toContain('latched stop engaged');
    expect(reports).toEqual([]);
  });

  it('reports a refused wake while latched instead of throwing', async () => {
    const reports: string[] = [];
    await runTrayAction('stop', trayDeps(reports));
    await runTrayAction('wake', trayDeps(reports));
    await runTrayAction('resume', trayDeps(reports));
    expect(reports).toEqual(['Wake failed: stopped: resume from the dashboard first']);
  });

  it('turns demo mode on and off through the menu checkbox', async () => {
    await runTrayAction('demo', trayDeps([]), true);
    expect(readSnapshot(composed.cockpit).demo?.state).toBe('running');
    await runTrayAction('demo', trayDeps([]), false);
    expect(readSnapshot(composed.cockpit).demo?.state).toBe('off');
  });
});
