/**
 * `npm run serve -- [flags]`: the headless cockpit, as a robot without a display runs it under
 * systemd. Prints where it listens, never the token itself (logs are kept).
 */
import { join } from 'node:path';
import { ConfigError, createLog, startCockpit, type Cockpit } from '../server/index.ts';
import { boot } from './boot.ts';
import { parseArgs } from './flags.ts';
import { stopOnSignals } from './signals.ts';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.command !== undefined) throw new Error(`unknown command "${args.command}"`);
  const { config, ownerToken } = await boot(args.flags);
  const log = createLog({ level: config.logLevel, scope: 'cockpit' });
  const cockpit = await startCockpit({ config, log, ownerToken });
  announce(cockpit, config.dataDir);
  stopOnSignals(cockpit);
}

function announce(cockpit: Cockpit, dataDir: string): void {
  const lines = [
    `cockpit: server A on ${cockpit.url}`,
    cockpit.simulated
      ? `cockpit: simulated robot daemon on ${cockpit.daemonUrl}`
      : `cockpit: robot daemon at ${cockpit.daemonUrl}`,
    `cockpit: owner token in ${join(dataDir, 'owner-token')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `cockpit failed to start: ${(err as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(2);
});
