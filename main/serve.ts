/**
 * `npm run serve -- [flags]`: the headless cockpit, as a robot without a display runs it under
 * systemd. Prints where it listens, never the token itself (logs are kept).
 */
import { join } from 'node:path';
import { ConfigError, type Cockpit } from '../server/index.ts';
import { composeCockpit } from './compose.ts';
import { parseArgs } from './flags.ts';
import { stopOnSignals } from './signals.ts';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.command !== undefined) throw new Error(`unknown command "${args.command}"`);
  const composed = await composeCockpit({ flags: args.flags });
  announce(composed.cockpit, composed.config.dataDir, platformLine(composed.platform.status()));
  stopOnSignals(composed);
}

function platformLine(status: { enrolled: boolean; platformUrl: string | null; deviceId: string | null }): string {
  return status.enrolled
    ? `cockpit: platform device ${status.deviceId} at ${status.platformUrl}`
    : 'cockpit: not enrolled on the platform (enrol from the dashboard, or set ROBOT_PLATFORM_URL / ROBOT_DEVICE_ID / ROBOT_DEVICE_TOKEN)';
}

function announce(cockpit: Cockpit, dataDir: string, platform: string): void {
  const lines = [
    `cockpit: server A on ${cockpit.url}`,
    cockpit.simulated
      ? `cockpit: simulated robot daemon on ${cockpit.daemonUrl}`
      : `cockpit: robot daemon at ${cockpit.daemonUrl}`,
    `cockpit: owner token in ${join(dataDir, 'owner-token')}`,
    platform,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `cockpit failed to start: ${(err as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(2);
});
