/**
 * The desktop app's server process: the cockpit `npm run serve` runs (composeCockpit), started
 * with the serve flags it is given, speaking the desktop link (cockpit-link.ts) to the shell.
 * Electron starts it as a utility process (main/electron/server.ts), where the link is
 * `process.parentPort` (adapted in parent-link.ts); the tests run this same file in a Node fork
 * with a stand-in port over the fork's IPC channel (main/desktop/testing/fake-parent-port.ts).
 * Started as `standby [flags]` it is the restart loop's spare: loaded, it says so and waits for
 * 'go' before it starts the cockpit.
 */
import { createLog } from '../../server/index.ts';
import { composeCockpit } from '../compose.ts';
import { installFatalNet } from '../fatal-net.ts';
import { parseArgs } from '../flags.ts';
import { hostCockpit, type LinkPort } from './cockpit-host.ts';
import { parentPortLink, parentPortOf } from './parent-link.ts';

installFatalNet({ scope: 'cockpit' });

/** Resolves on the shell's 'go'. A spare whose shell quits is ended with it (Electron ends utility processes with their parent). */
function standBy(link: LinkPort): Promise<void> {
  let waiting = true;
  return new Promise((resolve) => {
    link.onMessage((message) => {
      if (message.kind !== 'go' || !waiting) return;
      waiting = false;
      resolve();
    });
    link.post({ kind: 'standby' });
  });
}

async function main(): Promise<void> {
  const port = parentPortOf();
  if (!port) throw new Error('the desktop server process runs in a utility process of the desktop app (main/electron/server.ts)');
  const link = parentPortLink(port);
  const { command, flags } = parseArgs(process.argv.slice(2));
  if (command === 'standby') await standBy(link);
  else if (command !== undefined) throw new Error(`unknown command "${command}"`);
  const composed = await composeCockpit({
    flags,
    log: (config) => createLog({ level: config.logLevel, scope: 'cockpit' }),
    onNotify: (notification) => link.post({ kind: 'notice', notification }),
    // After a firmware install the whole app restarts (the shell relaunches itself).
    restart: () => link.post({ kind: 'relaunch' }),
  });
  let stopping = false;
  const host = hostCockpit(composed, link, { onShutdown: () => stop() });
  function stop(): void {
    if (stopping) return;
    stopping = true;
    host.stop();
    composed.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const { cockpit, config } = composed;
  link.post({
    kind: 'ready',
    port: cockpit.port,
    host: config.host,
    dataDir: config.dataDir,
    simulated: cockpit.simulated,
    daemonUrl: cockpit.daemonUrl,
  });
  host.pulse();
}

main().catch((err: unknown) => {
  process.stderr.write(`cockpit failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
