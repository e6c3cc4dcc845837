/**
 * A TCP relay in front of a daemon that can stall its `set_target` socket: while held, what the
 * cockpit writes on that socket is kept here, as a stalled daemon's kernel keeps it in its receive
 * buffer, and handed on in order at the release, as the daemon reads it once it runs again
 * (server/motion/stop-target-fence.test.ts). Every other connection passes straight through.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface StalledTargetSocket {
  /** `http://127.0.0.1:<port>`: the daemon's address, through the relay. */
  url: string;
  /** From now on, the set_target socket's bytes wait here. */
  hold(): void;
  /** Hands the waiting bytes on in order, and passes the next ones straight through. */
  release(): void;
  /** Chunks written on the set_target socket since the hold and not yet handed on. */
  held(): number;
  close(): Promise<void>;
}

const SET_TARGET = 'GET /api/move/ws/set_target';

export async function startStalledTargetSocket(daemonPort: number): Promise<StalledTargetSocket> {
  let holding = false;
  const waiting: { to: Socket; chunk: Buffer }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(daemonPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let isTargets: boolean | undefined;
    client.on('data', (chunk) => {
      isTargets ??= chunk.toString('latin1').startsWith(SET_TARGET);
      if (isTargets && holding) waiting.push({ to: upstream, chunk });
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const { to, chunk } of waiting.splice(0)) to.write(chunk);
    },
    held: () => waiting.length,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
