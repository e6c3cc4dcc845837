/**
 * What the tray shows, as pure functions of the cockpit's health and its services:
 * the icon's colour, the tooltip and the menu. main/electron/tray.ts only turns this model into
 * an Electron Tray and Menu, so every rule here is tested without Electron.
 */
import type { Health, ServiceState } from '../../server/index.ts';

/** What the tray reads from the running cockpit, once a second. */
export interface CockpitSnapshot {
  /** `identity` carries the robot's name (server/discovery), which the tooltip leads with. */
  health: Pick<Health, 'daemon' | 'camera' | 'problems' | 'pressure'> & { identity?: Pick<Health['identity'], 'name'> };
  /** services.stop: `running` means the latched stop is engaged (server/motion/stop-latch.ts). */
  stop: ServiceState | undefined;
  /** services.demo: `running` means demo mode is on. */
  demo: ServiceState | undefined;
  /** The platform link: absent when no platform client is wired. */
  platform?: PlatformSnapshot;
  /** The server process under the desktop app's restart loop (server-status.ts). */
  server?: ServerSnapshot;
}

/** The server process as the tray tells it: restarting now, and how often it had to be. */
export interface ServerSnapshot {
  restarting: boolean;
  restarts: number;
  /** How the last process ended ("signal SIGKILL", "exit code 70"), once one has. */
  lastExit: string | null;
}

/** A tray line once the server has been restarted (or is being); null while it never was. */
export function serverLabel(server: ServerSnapshot | undefined): string | null {
  if (!server || (server.restarts === 0 && !server.restarting)) return null;
  const last = server.lastExit ? ` (last: ${server.lastExit})` : '';
  if (server.restarting) return `Server stopped${last}; restarting…`;
  return `Server restarted ${server.restarts === 1 ? 'once' : `${server.restarts} times`}${last}`;
}

/** The part of the platform client's status the tray shows. */
export interface PlatformSnapshot {
  enrolled: boolean;
  connected: boolean;
  online: boolean;
  halted: boolean;
  /** The platform refused the device token: rotated (adopt a new one), removed, or cannot tell. */
  token?: 'rotated' | 'removed' | 'refused';
  /** Where a firmware update stands, when there is one worth a line. */
  firmware?: { state: string; staged: string | null; currentVersion: string | null; installAllowed: boolean };
}

/** A tray line for a firmware update that needs the operator or just happened; null otherwise. */
export function firmwareLabel(f: PlatformSnapshot['firmware']): string | null {
  if (!f) return null;
  if (f.state === 'staged' && f.staged)
    return f.installAllowed
      ? `Update ${f.staged} waits for an idle robot`
      : `Update ${f.staged} ready (allow it in Platform settings)`;
  if (f.state === 'applying') return 'Installing an update…';
  if (f.state === 'applied' && f.currentVersion) return `Update ${f.currentVersion} installed`;
  return null;
}

/** One line for the tray: where the robot stands with the hosted platform. */
export function platformLabel(p: PlatformSnapshot): string {
  if (!p.enrolled) return 'Platform: not enrolled';
  if (p.token === 'rotated') return 'Platform: token rotated (adopt the new one from the dashboard)';
  if (p.token === 'removed') return 'Platform: robot removed (enrol again from the dashboard)';
  if (p.halted || p.token === 'refused') return 'Platform: token refused (re-enrol from the dashboard)';
  if (!p.connected) return 'Platform: disconnected (local control only)';
  return p.online ? 'Platform: online' : 'Platform: connecting…';
}

/** Green, amber, red. */
export type Tone = 'ok' | 'degraded' | 'stopped';

export function stopEngaged(snapshot: Pick<CockpitSnapshot, 'stop'>): boolean {
  return snapshot.stop?.state === 'running';
}

/** The tone and the reasons for it, most serious first. */
export function healthVerdict(snapshot: CockpitSnapshot): { tone: Tone; reasons: string[] } {
  const { daemon, camera, problems, pressure } = snapshot.health;
  const red: string[] = [];
  const amber: string[] = [];
  // While the server restarts every other part of the snapshot is the dead process's last word.
  if (snapshot.server?.restarting) return { tone: 'stopped', reasons: ['cockpit server restarting'] };
  if (stopEngaged(snapshot)) red.push('latched stop engaged');
  // The feed reports a daemon that is unreachable or not running as `down` (server/daemon/state-feed.ts).
  if (daemon.presence === 'down')
    red.push(daemon.reachable ? `daemon ${daemon.state ?? 'not running'}` : 'daemon unreachable');
  else if (daemon.presence !== 'connected') amber.push(`daemon ${daemon.presence}`);
  if (camera.status === 'lost') amber.push('camera lost');
  if (pressure.warning) amber.push('resource pressure');
  const explained = red.length + amber.length > 0;
  // Problems the lines above already describe are not repeated; others (stream silent...) count.
  if (!explained && Object.keys(problems).length > 0) amber.push(...Object.values(problems));
  if (red.length > 0) return { tone: 'stopped', reasons: [...red, ...amber] };
  if (amber.length > 0) return { tone: 'degraded', reasons: amber };
  return { tone: 'ok', reasons: [] };
}

export function trayTooltip(snapshot: CockpitSnapshot): string {
  const { tone, reasons } = healthVerdict(snapshot);
  const robot = snapshot.health.daemon.simulated ? 'simulated robot' : 'robot';
  const name = snapshot.health.identity?.name ?? 'Robot Cockpit';
  if (tone === 'ok') return `${name}: ${robot} OK`;
  return `${name}: ${reasons.join(', ')}`;
}

export type TrayAction =
  | 'open'
  | 'wake'
  | 'sleep'
  | 'stop'
  | 'resume'
  | 'demo'
  | 'save-recording'
  | 'pairing'
  | 'copy-remote'
  | 'platform-link'
  | 'platform-settings'
  | 'login'
  | 'quit';

export type MenuEntry =
  | { type: 'status'; label: string }
  | { type: 'separator' }
  | { type: 'action'; action: TrayAction; label: string; enabled: boolean }
  | { type: 'checkbox'; action: TrayAction; label: string; checked: boolean; enabled: boolean };

export interface MenuInput {
  snapshot: CockpitSnapshot;
  /** Whether the app starts at login; undefined where Electron cannot set it (Linux). */
  openAtLogin: boolean | undefined;
  /** The address phones on the LAN use, when there is one. */
  remoteUrl: string | undefined;
}

/** Minutes the tray's "Save last minutes" keeps (fewer when the recorder's ring is shorter). */
export const TRAY_SAVE_MINUTES = 5;

const STATUS_LABEL: Record<Tone, string> = { ok: 'Robot OK', degraded: 'Degraded', stopped: 'Stopped' };

export function trayMenu({ snapshot, openAtLogin, remoteUrl }: MenuInput): MenuEntry[] {
  const { tone, reasons } = healthVerdict(snapshot);
  const latched = stopEngaged(snapshot);
  // Wake and sleep are daemon moves: refused with 409 while latched, useless while the daemon is down.
  const canMove = !latched && !snapshot.server?.restarting && snapshot.health.daemon.presence === 'connected';
  const server = serverLabel(snapshot.server);
  const action = (a: TrayAction, label: string, enabled = true): MenuEntry => ({
    type: 'action',
    action: a,
    label,
    enabled,
  });
  return [
    { type: 'status', label: reasons.length > 0 ? `${STATUS_LABEL[tone]}: ${reasons.join(', ')}` : STATUS_LABEL[tone] },
    ...(server ? [{ type: 'status' as const, label: server }] : []),
    action('open', 'Open dashboard'),
    { type: 'separator' },
    action('wake', 'Wake', canMove),
    action('sleep', 'Sleep', canMove),
    // The stop stays available in every state: it must never be the button that is greyed out.
    action('stop', latched ? 'STOP (latched)' : 'STOP'),
    action('resume', 'Resume', latched),
    {
      type: 'checkbox',
      action: 'demo',
      label: 'Demo mode',
      checked: snapshot.demo?.state === 'running',
      enabled: true,
    },
    // The black box keeps recording whatever the robot's state: saving is always possible.
    action('save-recording', `Save last ${TRAY_SAVE_MINUTES} minutes`),
    { type: 'separator' },
    ...platformEntries(snapshot.platform),
    action('pairing', 'Show pairing QR…'),
    action(
      'copy-remote',
      remoteUrl ? `Copy remote address (${remoteUrl})` : 'Copy remote address (no LAN address)',
      remoteUrl !== undefined,
    ),
    { type: 'separator' },
    {
      type: 'checkbox',
      action: 'login',
      label: openAtLogin === undefined ? 'Start at login (macOS and Windows only)' : 'Start at login',
      checked: openAtLogin === true,
      enabled: openAtLogin !== undefined,
    },
    action('quit', 'Quit Robot Cockpit'),
  ];
}

/**
 * The platform section: its status, a switch for the link (disconnecting keeps local control
 * fully working) and the way to the dashboard's enrolment and firmware-channel settings.
 */
function platformEntries(platform: PlatformSnapshot | undefined): MenuEntry[] {
  if (!platform) return [];
  const update = firmwareLabel(platform.firmware);
  return [
    { type: 'status', label: platformLabel(platform) },
    ...(update ? [{ type: 'status' as const, label: update }] : []),
    {
      type: 'checkbox',
      action: 'platform-link',
      label: 'Connected to the platform',
      checked: platform.connected,
      enabled: platform.enrolled,
    },
    { type: 'action', action: 'platform-settings', label: 'Platform settings…', enabled: true },
    { type: 'separator' },
  ];
}
