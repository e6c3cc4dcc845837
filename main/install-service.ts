/**
 * `npm run serve -- install-service [serve flags] [--dry-run]`: writes the systemd unit of
 * main/systemd-unit.ts and enables it, so systemd starts the cockpit at boot and restarts it
 * whenever it dies.
 *
 * Which unit: a user's own process should not need root, so a non-root user gets a `--user`
 * unit (~/.config/systemd/user), plus lingering so it starts at boot without a login. That
 * needs the user's systemd manager; where there is none (a container, a minimal image) or when
 * run as root, it is a system unit in /etc/systemd/system, which only root can write.
 *
 * What it runs: the bundled server of main/service-build.ts under plain `node`, built here
 * before the unit is written (with the dashboard, when its build is missing or older than its
 * sources), so a restart by systemd costs a start of one loaded file, not a compile.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildRenderer, rendererIsStale } from './launch.ts';
import { buildServiceBundle, checkoutRoot, SERVICE_BUNDLE } from './service-build.ts';
import { parseSystemdVersion, serviceUnit, UNIT_NAME } from './systemd-unit.ts';

const ROOT = checkoutRoot();

export interface ServiceHost {
  uid: number;
  user: string;
  env: Record<string, string | undefined>;
  home: string;
  /** `systemctl --user` reaches a running user manager. */
  userManager: boolean;
  systemdVersion: number;
}

export interface InstallPlan {
  scope: 'user' | 'system';
  unitPath: string;
  unit: string;
  /** systemctl / loginctl command lines to run after writing the unit, in order. */
  commands: string[][];
}

/** The serve command line the unit runs: this Node, the bundled server, the flags. No loader: nothing is compiled at start. */
export function serveCommand(serveArgs: readonly string[], root = ROOT, nodePath = process.execPath): string[] {
  return [nodePath, join(root, SERVICE_BUNDLE), ...serveArgs];
}

/** Decides the unit and where it goes; `serveArgs` already name the absolute data folder. */
export function planInstall(host: ServiceHost, serveArgs: readonly string[], dataDir: string, root = ROOT): InstallPlan | { error: string } {
  const asRoot = host.uid === 0;
  if (!asRoot && !host.userManager) {
    return {
      error:
        'no systemd user manager answers here (systemctl --user), so a user unit cannot run; ' +
        'run `sudo npm run serve -- install-service` for a system unit, or use `npm run serve -- supervise`',
    };
  }
  const scope = asRoot ? 'system' : 'user';
  const configHome = host.env['XDG_CONFIG_HOME'] || join(host.home, '.config');
  const unitPath = scope === 'user' ? join(configHome, 'systemd', 'user', UNIT_NAME) : join('/etc/systemd/system', UNIT_NAME);
  const unit = serviceUnit({
    scope,
    execStart: serveCommand(serveArgs, root),
    workingDirectory: root.replace(/\/$/, ''),
    dataDir,
    systemdVersion: host.systemdVersion,
  });
  const ctl = scope === 'user' ? ['systemctl', '--user'] : ['systemctl'];
  const commands = [
    [...ctl, 'daemon-reload'],
    [...ctl, 'enable', UNIT_NAME],
    // restart, not start: a running service must pick up the bundle just rebuilt.
    [...ctl, 'restart', UNIT_NAME],
    // Without lingering, a user's units start at their login and stop at their logout.
    ...(scope === 'user' ? [['loginctl', 'enable-linger', host.user]] : []),
  ];
  return { scope, unitPath, unit, commands };
}

/** The facts of this machine the plan depends on. */
export function probeHost(env: Record<string, string | undefined> = process.env): ServiceHost {
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 10_000 });
  const version = run('systemctl', ['--version']);
  const uid = process.getuid?.() ?? -1;
  return {
    uid,
    user: env['USER'] ?? env['LOGNAME'] ?? String(uid),
    env,
    home: env['HOME'] ?? '/',
    userManager: uid !== 0 && run('systemctl', ['--user', 'show-environment']).status === 0,
    systemdVersion: parseSystemdVersion(version.stdout ?? ''),
  };
}

export interface InstallServiceOptions {
  /** The serve flags to bake into ExecStart (without the command word and --dry-run). */
  serveArgs: readonly string[];
  /** The data folder boot() resolved; passed to the service explicitly so both agree. */
  dataDir: string;
  dryRun: boolean;
  say: (line: string) => void;
  host?: ServiceHost;
  /** Builds what the unit runs (the bundle, the dashboard if stale); the real builds by default. */
  build?: (root: string, say: (line: string) => void) => Promise<void>;
}

/** What the unit needs in the checkout: the bundled server, always rebuilt, and a current dashboard. */
export async function buildForService(root: string, say: (line: string) => void): Promise<void> {
  if (rendererIsStale(root)) {
    say('cockpit: building the dashboard (dist/renderer)…');
    buildRenderer(root);
  }
  say(`cockpit: bundling the server into ${SERVICE_BUNDLE}…`);
  try {
    await buildServiceBundle(root);
  } catch (error) {
    throw new Error(`bundling the server failed, so no unit was installed: ${(error as Error).message}`);
  }
}

export async function installService(options: InstallServiceOptions): Promise<void> {
  const host = options.host ?? probeHost();
  const dataDir = resolve(options.dataDir);
  const args = [...withoutDataDir(options.serveArgs), '--data-dir', dataDir];
  const plan = planInstall(host, args, dataDir);
  if ('error' in plan) throw new Error(plan.error);
  if (options.dryRun) {
    options.say(
      `# ${plan.scope} unit, would be written to ${plan.unitPath} after building ${SERVICE_BUNDLE}, then: ${plan.commands.map((c) => c.join(' ')).join('; ')}`,
    );
    options.say(plan.unit);
    return;
  }
  // Built before anything is written: a failed build leaves the old unit (if any) as it was.
  await (options.build ?? buildForService)(ROOT, options.say);
  mkdirSync(dirname(plan.unitPath), { recursive: true });
  writeFileSync(plan.unitPath, plan.unit, { mode: 0o644 });
  options.say(`cockpit: wrote the ${plan.scope} unit ${plan.unitPath}`);
  for (const [cmd, ...rest] of plan.commands) {
    const run = spawnSync(cmd as string, rest, { encoding: 'utf8', timeout: 60_000 });
    const line = [cmd, ...rest].join(' ');
    if (run.status === 0) options.say(`cockpit: ${line}: done`);
    else if (cmd === 'loginctl')
      options.say(`cockpit: ${line} failed (${(run.stderr || run.error?.message || '').trim()}); the service will start at your login, not at boot`);
    else throw new Error(`${line} failed: ${(run.stderr || run.error?.message || '').trim()}`);
  }
  const user = plan.scope === 'user' ? ' --user' : '';
  options.say(`cockpit: installed; status: systemctl${user} status robot-cockpit; logs: journalctl${user} -u robot-cockpit`);
  options.say('cockpit: the service runs the bundled server; after updating the checkout, run install-service again to rebuild it');
}

/** Drops any --data-dir from the given flags; the resolved one is appended instead. */
function withoutDataDir(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--data-dir') i += 1;
    else if (!arg.startsWith('--data-dir=')) out.push(arg);
  }
  return out;
}
