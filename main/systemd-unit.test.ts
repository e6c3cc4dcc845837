/**
 * The systemd unit `npm run serve -- install-service` writes: restart and hardening settings,
 * the user/system choice, and `systemd-analyze verify` accepting it without a single warning
 * (verify exits 0 even for unknown keys, so its output is checked too).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { installService, planInstall, type ServiceHost } from './install-service.ts';
import { SERVICE_BUNDLE } from './service-build.ts';
import { parseSystemdVersion, quoteArg, RESTART_DELAY_MS, serviceUnit, UNIT_NAME } from './systemd-unit.ts';

const ANALYZE = '/usr/bin/systemd-analyze';
const hasAnalyze = existsSync(ANALYZE);
const installed = hasAnalyze ? parseSystemdVersion(spawnSync(ANALYZE, ['--version'], { encoding: 'utf8' }).stdout) : 0;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function host(overrides: Partial<ServiceHost> = {}): ServiceHost {
  return { uid: 1000, user: 'robot', env: {}, home: '/home/robot', userManager: true, systemdVersion: 252, ...overrides };
}

const dataDir = '/home/robot/.local/share/robot-cockpit';

describe('serviceUnit', () => {
  it('restarts always, within 2 s, and sandboxes everything but the data folder', () => {
    const unit = serviceUnit({ scope: 'user', execStart: ['/usr/bin/node', 'serve.ts'], workingDirectory: '/opt/cockpit', dataDir, systemdVersion: 252 });
    for (const line of ['Restart=always', 'RestartSec=500ms', 'NoNewPrivileges=yes', 'ProtectSystem=strict', 'PrivateTmp=yes', `ReadWritePaths=${dataDir}`, 'WantedBy=default.target'])
      expect(unit.split('\n')).toContain(line);
    expect(unit).not.toMatch(/RestartSteps|MemoryDenyWriteExecute|User=/);
    // The delay systemd schedules leaves the start most of the promised 2 s.
    expect(RESTART_DELAY_MS).toBeLessThanOrEqual(500);
  });

  it('uses the growing restart delay where systemd has it', () => {
    const unit = serviceUnit({ scope: 'system', execStart: ['/usr/bin/node'], workingDirectory: '/opt/c', dataDir, systemdVersion: 256, runAs: 'robot' });
    expect(unit).toContain('RestartSteps=6\nRestartMaxDelaySec=30s');
    expect(unit).toContain('User=robot');
    expect(unit).toContain('WantedBy=multi-user.target');
  });

  it('quotes and escapes ExecStart words', () => {
    expect(quoteArg('/usr/bin/node')).toBe('/usr/bin/node');
    expect(quoteArg('/a b/serve.ts')).toBe('"/a b/serve.ts"');
    expect(quoteArg('50%$HOME')).toBe('"50%%$$HOME"');
  });

  it('reads the version systemctl prints', () => {
    expect(parseSystemdVersion('systemd 252 (252.39-1~deb12u2)\n+PAM +AUDIT')).toBe(252);
    expect(parseSystemdVersion('')).toBe(0);
  });
});

describe('planInstall', () => {
  it('is a user unit with lingering for a user, a system unit for root', () => {
    const user = planInstall(host({ env: { XDG_CONFIG_HOME: '/cfg' } }), ['--sim'], dataDir, '/opt/cockpit/');
    expect(user).toMatchObject({ scope: 'user', unitPath: `/cfg/systemd/user/${UNIT_NAME}` });
    expect('commands' in user && user.commands).toEqual([
      ['systemctl', '--user', 'daemon-reload'],
      ['systemctl', '--user', 'enable', UNIT_NAME],
      ['systemctl', '--user', 'restart', UNIT_NAME],
      ['loginctl', 'enable-linger', 'robot'],
    ]);
    const root = planInstall(host({ uid: 0, userManager: false }), [], '/root/data', '/opt/cockpit/');
    expect(root).toMatchObject({ scope: 'system', unitPath: `/etc/systemd/system/${UNIT_NAME}` });
    expect('commands' in root && root.commands).toEqual([
      ['systemctl', 'daemon-reload'],
      ['systemctl', 'enable', UNIT_NAME],
      ['systemctl', 'restart', UNIT_NAME],
    ]);
  });

  it('refuses a user unit where no user manager runs, saying what to do instead', () => {
    expect(planInstall(host({ userManager: false }), [], dataDir)).toEqual({ error: expect.stringMatching(/sudo npm run serve -- install-service/) });
  });

  it('runs the bundled server under plain node: no loader, nothing compiled at start', () => {
    const plan = planInstall(host(), ['--sim', '--data-dir', dataDir], dataDir, '/opt/cockpit');
    if ('error' in plan) throw new Error(plan.error);
    expect(plan.unit.split('\n')).toContain(`ExecStart=${process.execPath} /opt/cockpit/${SERVICE_BUNDLE} --sim --data-dir ${dataDir}`);
    expect(plan.unit).not.toMatch(/tsx|--import|\.ts\b/);
  });

  it('--dry-run prints the unit with the resolved data folder and builds and writes nothing', async () => {
    const lines: string[] = [];
    const build = vi.fn(async () => {});
    await installService({ serveArgs: ['--sim', '--data-dir', 'rel'], dataDir: '/abs/data', dryRun: true, say: (l) => lines.push(l), host: host(), build });
    expect(lines[0]).toMatch(/^# user unit, would be written to \/home\/robot\/.config\/systemd\/user\/robot-cockpit.service after building dist\/service\/serve.js/);
    expect(lines[1]).toMatch(/^ExecStart=\S+ \S+\/dist\/service\/serve.js --sim --data-dir \/abs\/data$/m);
    expect(build).not.toHaveBeenCalled();
  });

  it('builds before it writes: a failed build leaves no unit behind', async () => {
    const config = mkdtempSync(join(tmpdir(), 'cockpit-config-'));
    dirs.push(config);
    const lines: string[] = [];
    const build = vi.fn(async () => {
      throw new Error('bundling the server failed, so no unit was installed: boom');
    });
    const install = installService({ serveArgs: [], dataDir: '/abs/data', dryRun: false, say: (l) => lines.push(l), host: host({ env: { XDG_CONFIG_HOME: config } }), build });
    await expect(install).rejects.toThrow(/no unit was installed: boom/);
    expect(build).toHaveBeenCalledTimes(1);
    expect(existsSync(join(config, 'systemd', 'user', UNIT_NAME))).toBe(false);
  });
});

describe.skipIf(!hasAnalyze)(`systemd-analyze verify (${hasAnalyze ? ANALYZE : 'skipped: /usr/bin/systemd-analyze is not installed'})`, () => {
  for (const scope of ['system', 'user'] as const) {
    it(`accepts the generated ${scope} unit without a warning`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'cockpit-unit-'));
      dirs.push(dir);
      const plan = planInstall(host({ uid: scope === 'system' ? 0 : 1000, systemdVersion: installed }), ['--robot', 'both', '--data-dir', dir], dir);
      if ('error' in plan) throw new Error(plan.error);
      const file = join(dir, UNIT_NAME);
      writeFileSync(file, plan.unit);
      // A user manager's verify needs a runtime folder, which a test machine may not have.
      const runtime = mkdtempSync(join(tmpdir(), 'cockpit-runtime-'));
      dirs.push(runtime);
      const run = spawnSync(ANALYZE, [...(scope === 'user' ? ['--user'] : []), 'verify', file], {
        encoding: 'utf8',
        env: { ...process.env, XDG_RUNTIME_DIR: runtime, SYSTEMD_LOG_LEVEL: 'notice' },
      });
      expect(run.stderr + run.stdout).toBe('');
      expect(run.status).toBe(0);
    });
  }
});
