/**
 * The desktop app's server process: the cockpit `npm run serve` runs (composeCockpit), started
 * with the serve flags it is given, speaking the desktop link (cockpit-link.ts) to the shell.
 * Electron starts it as a utility process (main/electron/server.ts), where the link is
 * `process.parentPort`; a Node child_process fork works the same over its IPC channel, which is
 * how the tests drive it without Electron. Started as `standby [flags]` it is the restart loop's
 * spare: loaded, it says so and waits for 'go' before it starts the cockpit.
 */
import { createLog } from '../../server/index.ts';
import { composeCockpit } from '../compose.ts';
import { installFatalNet } from '../fatal-net.ts';
import { parseArgs } from '../flags.ts';
import { isToServer, type FromServer, type ToServer } from './cockpit-link.ts';
import { hostCockpit, type LinkPort } from './cockpit-host.ts';

installFatalNet({ scope: 'cockpit' });

/** Electron's utility-process port (typed here so this file needs no Electron typings). */
interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function linkToParent(): LinkPort & { onGone(listener: () => void): void } {
  const parentPort = (process as { parentPort?: ParentPort }).parentPort;
  const accept = (listener: (message: ToServer) => void) => (message: unknown) => {
    if (isToServer(message)) listener(message);
  };
  if (parentPort) {
    return {
      post: (message: FromServer) => parentPort.postMessage(message),
      onMessage: (listener) => parentPort.on('message', (event) => accept(listener)(event.data)),
      // Electron ends a utility process with its parent.
      onGone: () => undefined,
    };
  }
  if (!process.send) throw new Error('the desktop server process needs a parent (Electron utility process or a fork)');
  return {
    post: (message: FromServer) => void process.send?.(message),
    onMessage: (listener) => void process.on('message', accept(listener)),
    onGone: (listener) => void process.on('disconnect', listener),
  };
}

/** Resolves on the shell's 'go'; a spare whose parent goes just ends. */
function standBy(link: ReturnType<typeof linkToParent>): Promise<void> {
  let waiting = true;
  return new Promise((resolve) => {
    link.onMessage((message) => {
      if (message.kind !== 'go' || !waiting) return;
      waiting = false;
      resolve();
    });
    link.onGone(() => waiting && process.exit(0));
    link.post({ kind: 'standby' });
  });
}

async function main(): Promise<void> {
  const link = linkToParent();
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
  link.onGone(stop);
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
