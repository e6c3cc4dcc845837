/**
 * `npm run serve -- [flags]`: the headless cockpit, as a robot without a display runs it under
 * systemd. `--robot desktop` (default) runs the desktop server, `wheeled` the wheeled server alone, `both` the two
 * in one process sharing the passkey store and model settings. Prints where it listens, never
 * the token itself (logs are kept). `serve -- mint-token --sub S --name N --ttl SECONDS` mints
 * a wheeled-server service token. `serve -- install-service [flags] [--dry-run]` installs the systemd
 * unit that keeps it running (main/install-service.ts); `serve -- supervise [flags]` runs it
 * under the console's own restart loop instead, for hosts without systemd.
 */
import {
  ConfigError,
  createLog,
  describeMintedToken,
  ownerTokenWhere,
  runMintTokenCommand,
  startWheeledServer,
  type Cockpit,
  type Config,
  type WheeledServer,
} from '../server/index.ts';
import { boot } from './boot.ts';
import { announceReady, standBy } from './cockpit-child.ts';
import { composeCockpit } from './compose.ts';
import { installFatalNet } from './fatal-net.ts';
import { formatFlags, parseArgs, type ParsedArgs } from './flags.ts';
import { installService } from './install-service.ts';
import { stopOnSignals } from './signals.ts';
import { runSupervised } from './supervised-run.ts';

installFatalNet({ scope: 'cockpit' });

const say = (lines: string[]) => lines.length > 0 && process.stdout.write(`${lines.join('\n')}\n`);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.command === 'mint-token') return mintToken(args);
  if (args.command === 'install-service') return installServiceCommand(args);
  if (args.command === 'supervise') return void (await supervise(args));
  // A spare of the restart loop (main/cockpit-child.ts): everything is loaded by now; wait.
  if (args.command === 'standby') await standBy();
  else if (args.command !== undefined)
    throw new Error(`unknown command "${args.command}" (known: mint-token, install-service, supervise)`);
  const { config, ownerToken } = await boot(args.flags);
  say(
    config.ignored.map(
      (name) => `cockpit: ${name} is not a setting of this cockpit; ignored (README.md, "Configuration")`,
    ),
  );
  if (config.robot === 'wheeled') {
    const b = await startB(config, ownerToken);
    say([`cockpit: wheeled server on ${b.url}`, `cockpit: ${ownerTokenWhere(config.dataDir, config.token)}`]);
    stopOnSignals(b);
    return announceReady({ b: { url: b.url, port: b.port } });
  }
  const composed = await composeCockpit({ flags: args.flags });
  const { cockpit } = composed;
  announce(cockpit, composed.config, platformLine(composed.platform.status()));
  const a = { url: cockpit.url, port: cockpit.port, simulated: cockpit.simulated };
  if (config.robot !== 'both') {
    stopOnSignals(composed);
    return announceReady({ a });
  }
  const b = await startB(config, ownerToken, cockpit);
  say([`cockpit: wheeled server on ${b.url}`]);
  stopOnSignals({ stop: () => b.stop().then(() => composed.stop()) });
  announceReady({ a, b: { url: b.url, port: b.port } });
}

async function installServiceCommand(args: ParsedArgs): Promise<void> {
  const { config } = await boot(args.flags);
  await installService({
    serveArgs: formatFlags(args.flags),
    dataDir: config.dataDir,
    dryRun: args.options['dry-run'] === 'true',
    say: (line) => say([line]),
  });
}

async function supervise(args: ParsedArgs) {
  const { config } = await boot(args.flags);
  return runSupervised({
    args: formatFlags(args.flags),
    log: createLog({ level: config.logLevel, scope: 'cockpit.supervisor' }),
    spare: config.spare,
    onReady: (ready, restarts) =>
      restarts > 0 && say([`cockpit: server back after restart ${restarts} (pid ${ready.pid})`]),
  });
}

/** The wheeled server; beside the desktop server it shares the desktop server's passkeys, sessions and model settings (one writer per file). */
function startB(config: Config, ownerToken: string, a?: Cockpit): Promise<WheeledServer> {
  return startWheeledServer({
    config,
    log: createLog({ level: config.logLevel, scope: 'cockpit' }),
    ownerToken,
    ...(config.roverUrl ? { backend: { kind: 'http', url: config.roverUrl } } : {}),
    ...(a ? { access: a.access, modelSettings: a.features.agent.settings } : {}),
  });
}

async function mintToken(args: ParsedArgs): Promise<void> {
  const { config } = await boot(args.flags);
  const minted = await runMintTokenCommand({ dataDir: config.dataDir, options: args.options });
  process.stdout.write(`${minted.token}\n`);
  process.stderr.write(`${describeMintedToken(minted)}\n`);
}

function platformLine(status: { enrolled: boolean; platformUrl: string | null; deviceId: string | null }): string {
  return status.enrolled
    ? `cockpit: platform device ${status.deviceId} at ${status.platformUrl}`
    : 'cockpit: not enrolled on the platform (enrol from the dashboard, or set ROBOT_PLATFORM_URL / ROBOT_DEVICE_ID / ROBOT_DEVICE_TOKEN)';
}

function announce(cockpit: Cockpit, config: Config, platform: string): void {
  say([
    `cockpit: desktop server on ${cockpit.url}`,
    cockpit.simulated
      ? `cockpit: simulated robot daemon on ${cockpit.daemonUrl}`
      : `cockpit: robot daemon at ${cockpit.daemonUrl}`,
    `cockpit: ${ownerTokenWhere(config.dataDir, config.token)}`,
    platform,
  ]);
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `cockpit failed to start: ${(err as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(2);
});
