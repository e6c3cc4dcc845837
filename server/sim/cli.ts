/**
 * `npm run sim -- [--port 8000]`: the simulated robot daemon alone, on 127.0.0.1, like the real
 * daemon's default port. Logs go to stderr; stdout carries the one line saying where it listens.
 */
import { createLog } from '../log.ts';
import { parsePort } from './cli-args.ts';
import { startSimDaemon } from './index.ts';
import { messageOf } from '../errors.ts';

async function main(): Promise<void> {
  const log = createLog({ scope: 'sim-cli' });
  const port = parsePort(process.argv.slice(2));
  // Alone on the daemon's port, the camera takes webrtcsink's port too (docs/daemon.md, "Conventions"), or
  // any free one if 8443 is taken: the URL is printed either way.
  const sim = await startSimDaemon({ port, cameraPort: port === 8000 ? 8443 : 0, log }).catch((error: unknown) => {
    if (port !== 8000 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startSimDaemon({ port, cameraPort: 0, log });
  });
  process.stdout.write(`sim: robot daemon on ${sim.url}\nsim: camera signalling on ${sim.cameraSignallingUrl}\n`);
  const stop = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sim: ${messageOf(error)}\n`);
  process.exit(1);
});
