/**
 * The systemd unit of a headless robot (`npm run serve -- install-service`): systemd is the
 * restart loop there. It runs the bundled server (main/service-build.ts) directly under Node (no
 * npm wrapper in between, so SIGTERM reaches the server and its graceful stop; no TypeScript
 * loader, so a start compiles nothing), restarts it whatever the exit, and sandboxes it: the
 * system is read-only except the cockpit's data folder.
 *
 * Deliberately absent: MemoryDenyWriteExecute (V8's JIT writes executable memory), and
 * PrivateDevices / device filters (the robot's camera and audio may be local devices).
 */
import { pathToFileURL } from 'node:url';

export const UNIT_NAME = 'robot-cockpit.service';

/** The first systemd with RestartSteps= / RestartMaxDelaySec= (a growing restart delay). */
export const RESTART_STEPS_SINCE = 254;

export interface UnitOptions {
  /** A `systemctl --user` unit (runs as the installing user) or a system unit. */
  scope: 'user' | 'system';
  /** The command line, absolute paths: node, the bundled server, the serve flags. */
  execStart: readonly string[];
  /** The checkout (WorkingDirectory): the dashboard is served from its dist/renderer. */
  workingDirectory: string;
  /** The data folder: the one place the service may write. */
  dataDir: string;
  /** For a system unit, the account it runs as (root when absent). */
  runAs?: string;
  /** The installed systemd's version, to pick the restart backoff it understands. */
  systemdVersion: number;
}

/**
 * systemd waits this long after an exit before the new start; with the bundle's start (well
 * under a second, bench/restart.ts) the server answers again within the promised 2 s.
 */
export const RESTART_DELAY_MS = 500;
export const RESTART_SEC = `${RESTART_DELAY_MS}ms`;

export function serviceUnit(options: UnitOptions): string {
  const backoff =
    options.systemdVersion >= RESTART_STEPS_SINCE
      ? // The delay grows from RestartSec to 30 s over 6 quick failures, and drops back after a lasting run.
        { unit: ['StartLimitIntervalSec=0'], service: ['RestartSteps=6', 'RestartMaxDelaySec=30s'] }
      : // Older systemd has a fixed delay only: never give up, one restart per RestartSec at most.
        { unit: ['StartLimitIntervalSec=0'], service: [] };
  const lines = [
    '[Unit]',
    'Description=Robot Cockpit (operator console of the robot)',
    `Documentation=${escapePath(pathToFileURL(`${options.workingDirectory}/README.md`).href)}`,
    'Wants=network-online.target',
    'After=network-online.target',
    ...backoff.unit,
    '',
    '[Service]',
    'Type=simple',
    ...(options.scope === 'system' && options.runAs ? [`User=${options.runAs}`] : []),
    `WorkingDirectory=${escapePath(options.workingDirectory)}`,
    `ExecStart=${options.execStart.map(quoteArg).join(' ')}`,
    'Restart=always',
    `RestartSec=${RESTART_SEC}`,
    ...backoff.service,
    // The server's own graceful stop is bounded well inside this.
    'TimeoutStopSec=20s',
    'UMask=0077',
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
    'ProtectHome=read-only',
    `ReadWritePaths=${quoteArg(options.dataDir)}`,
    'PrivateTmp=yes',
    'ProtectKernelTunables=yes',
    'ProtectKernelModules=yes',
    'ProtectKernelLogs=yes',
    'ProtectControlGroups=yes',
    'ProtectClock=yes',
    'ProtectHostname=yes',
    'RestrictSUIDSGID=yes',
    'RestrictRealtime=yes',
    'LockPersonality=yes',
    'SystemCallArchitectures=native',
    // Netlink: the host's addresses (mDNS, the allowed Host names); UNIX: local sockets.
    'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK',
    '',
    '[Install]',
    `WantedBy=${options.scope === 'user' ? 'default.target' : 'multi-user.target'}`,
    '',
  ];
  return lines.join('\n');
}

/** An ExecStart word: quoted when it has spaces or quotes, with systemd's C-style escapes. */
export function quoteArg(arg: string): string {
  const escaped = arg.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /[\s"'\\]/.test(arg) || escaped !== arg ? `"${escaped}"` : arg;
}

/** A path in a setting that takes one path: specifiers (%) doubled; spaces are fine there. */
function escapePath(path: string): string {
  return path.replace(/%/g, '%%');
}

/** The major version from `systemctl --version` ("systemd 252 (252.39-1~deb12u2)"), or 0. */
export function parseSystemdVersion(output: string): number {
  const match = /^systemd (\d+)/m.exec(output);
  return match ? Number(match[1]) : 0;
}
