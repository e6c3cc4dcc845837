/**
 * `npm start`: the console. An Electron window when the Electron binary is installed (and a
 * display exists); otherwise the headless server plus the dashboard in a browser, saying so.
 * The real daemon when one answers at ROBOT_DAEMON_URL, else the built-in simulator. Headless,
 * the server runs in a child process under the restart loop (main/supervised-run.ts), so a crash
 * costs the operator a reconnect, not the console.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, createLog } from '../server/index.ts';
import { boot } from './boot.ts';
import { installFatalNet } from './fatal-net.ts';
import { formatFlags, parseArgs } from './flags.ts';
import { buildRenderer, daemonAnswers, electronBinary, hasDisplay, openBrowser, rendererIsStale } from './launch.ts';
import { runSupervised } from './supervised-run.ts';

installFatalNet({ scope: 'cockpit.console' });

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (rendererIsStale(ROOT)) {
    say('cockpit: building the dashboard…');
    buildRenderer(ROOT);
  }
  const electron = electronBinary();
  if (electron && hasDisplay(process.platform, process.env)) return launchElectron(electron, process.argv.slice(2));
  say(
    electron
      ? 'cockpit: no display found; running headless.'
      : 'cockpit: the Electron binary is not installed (its download needs GitHub); running headless with the dashboard in your browser.',
  );
  const flags = await chooseDaemon(args.flags);
  // The owner token exists before the server starts, so the link below is right from the first start.
  const { config, ownerToken } = await boot(flags);
  // The console is quieter than `npm run serve`: info lines would bury the dashboard link.
  const level = config.logLevel === 'info' ? 'warn' : config.logLevel;
  let firstPort: number | undefined;
  await runSupervised({
    args: formatFlags(flags),
    env: { ...process.env, ROBOT_LOG_LEVEL: level },
    log: createLog({ level, scope: 'cockpit.supervisor' }),
    spare: config.spare,
    onReady(ready, restarts) {
      if (!ready.a) return;
      const dashboard = `http://localhost:${ready.a.port}/?token=${encodeURIComponent(ownerToken)}`;
      if (restarts > 0) {
        say(`cockpit: the server stopped and was restarted (restart ${restarts}); the dashboard reconnects by itself.`);
        // Only with --port 0 does a new process listen elsewhere.
        if (ready.a.port !== firstPort) say(`cockpit: it now listens on another port: ${dashboard}`);
        return;
      }
      firstPort = ready.a.port;
      say(ready.a.simulated ? 'cockpit: using the built-in SIMULATED robot.' : 'cockpit: using the robot daemon.');
      say(`cockpit: open the dashboard: ${dashboard}`);
      if (hasDisplay(process.platform, process.env)) openBrowser(dashboard, process.platform);
    },
  });
}

/** Without an explicit daemon, use the real one if it answers, else the simulator. */
async function chooseDaemon(flags: ReturnType<typeof parseArgs>['flags']) {
  const explicit = flags.sim === true || flags.daemon !== undefined || Boolean(process.env['ROBOT_DAEMON_URL']);
  if (explicit) return flags;
  const real = 'http://127.0.0.1:8000';
  if (await daemonAnswers(real)) return { ...flags, daemon: real };
  say(`cockpit: no robot daemon answers at ${real}.`);
  return { ...flags, sim: true };
}

function launchElectron(binary: string, argv: string[]): void {
  say('cockpit: starting the desktop app (Electron)…');
  const built = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.electron.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('compiling the desktop app failed (npm run build:node)');
  const child = spawn(binary, [join(ROOT, 'dist', 'main', 'electron', 'main.js'), ...argv], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `cockpit failed to start: ${(err as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(2);
});
