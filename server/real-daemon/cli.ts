/**
 * `npm run real-daemon -- [--port 8000] [--version X] [--sim] [--install-only]`: installs the
 * pinned real daemon into its cached venv (server/real-daemon/venv.ts), then runs it on
 * 127.0.0.1 with no robot until SIGINT/SIGTERM. `--install-only` stops after the install (CI).
 */
import { parseRealDaemonArgs } from './cli-args.ts';
import { startRealDaemon } from './process.ts';
import { ensureInstalled } from './venv.ts';
import { messageOf } from '../errors.ts';

async function main(): Promise<void> {
  const args = parseRealDaemonArgs(process.argv.slice(2));
  const paths = await ensureInstalled({ version: args.version, flavour: args.flavour });
  process.stdout.write(`real-daemon: reachy-mini ${args.version} installed in ${paths.root}\n`);
  if (args.installOnly) return;
  const daemon = await startRealDaemon({
    paths,
    port: args.port,
    flavour: args.flavour,
    onLine: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`real-daemon: robot daemon on ${daemon.url} (${args.flavour}, no robot, no media)\n`);
  process.stdout.write(`real-daemon: try the cockpit with  npm run serve -- --daemon ${daemon.url}\n`);
  const stop = () => void daemon.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`real-daemon: ${messageOf(error)}\n`);
  process.exit(1);
});
