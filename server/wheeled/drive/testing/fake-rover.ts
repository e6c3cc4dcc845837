/**
 * A fake of the FrodoBots Earth Rover SDK's HTTP surface for tests (README-wheeled.md, "Real
 * rover"): POST /control {command: {linear, angular}} answered {message: "Command sent
 * successfully"}, GET /data with the documented telemetry fields, GET /v2/front with a base64
 * frame. Commands are recorded with their arrival time; the fix moves when told to.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRover {
  url: string;
  commands: Array<{ linear: number; angular: number; at: number }>;
  /** What GET /data answers (merged over the defaults). */
  data: Record<string, unknown>;
  /** Answer every request with this status instead (an SDK in trouble). */
  failWith: number | undefined;
  close(): Promise<void>;
}

/** The smallest JPEG a viewer accepts: SOI, EOI. */
export const FAKE_FRAME = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString() || 'null') as unknown;
}

export async function startFakeRover(): Promise<FakeRover> {
  const rover: FakeRover = {
    url: '',
    commands: [],
    data: {
      battery: 87,
      signal_level: 5,
      orientation: 90,
      lamp: 0,
      speed: 0,
      latitude: 22.7537,
      longitude: 114.0909,
      timestamp: Date.now() / 1000,
    },
    failWith: undefined,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (rover.failWith) return json(rover.failWith, { detail: 'bot offline' });
    if (req.method === 'POST' && req.url === '/control') {
      void body(req).then((b) => {
        const command = (b as { command?: { linear?: unknown; angular?: unknown } } | null)?.command;
        if (typeof command?.linear !== 'number' || typeof command.angular !== 'number')
          return json(422, { detail: 'command.linear and command.angular are required' });
        rover.commands.push({ linear: command.linear, angular: command.angular, at: Date.now() });
        json(200, { message: 'Command sent successfully' });
      });
      return;
    }
    if (req.method === 'GET' && req.url === '/data') return json(200, rover.data);
    if (req.method === 'GET' && req.url === '/v2/front')
      return json(200, { front_frame: FAKE_FRAME.toString('base64'), timestamp: Date.now() / 1000 });
    json(404, { detail: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rover.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rover.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return rover;
}
