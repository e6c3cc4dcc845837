import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { openSocket, startWheeledHarness, type OpenedSocket, type WheeledHarness } from '../testing/wheeled-harness.ts';

let h: WheeledHarness | undefined;
let socket: OpenedSocket | undefined;
let endpointClose: (() => Promise<void>) | undefined;
afterEach(async () => {
  socket?.ws.close();
  socket = undefined;
  await h?.close();
  h = undefined;
  await endpointClose?.();
  endpointClose = undefined;
});

/** A realtime endpoint that takes the connection and never answers its upgrade: it takes no audio either. */
async function silentEndpoint(): Promise<string> {
  const held: Duplex[] = [];
  const server = createServer();
  server.on('upgrade', (_req, raw: Duplex) => void held.push(raw));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpointClose = () =>
    new Promise<void>((resolve) => {
      for (const raw of held) raw.destroy();
      server.close(() => resolve());
    });
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/realtime`;
}

it('ends a realtime voice session whose endpoint takes no audio, instead of holding all the audio sent', async () => {
  const url = await silentEndpoint();
  h = await startWheeledHarness();
  await h.call('/api/console/voice', {
    method: 'PUT',
    body: { provider: 'realtime', realtime: { url, key: 'rt-key' } },
  });
  socket = await openSocket(`${h.wsUrl}/ws/voice?token=${encodeURIComponent(h.serviceToken)}`);
  await socket.next((f) => f.type === 'voice_meta');
  // 6 MB of microphone audio (8 MB once base64 for the endpoint), 60 KB a frame: about two
  // minutes of speech, sent at once. Held for an endpoint that never takes it, it all stayed.
  const chunk = Buffer.alloc(60_000);
  for (let i = 0; i < 100; i += 1) socket.ws.send(chunk);
  expect(await socket.next((f) => f.type === 'error')).toEqual({
    type: 'error',
    error: 'the realtime endpoint is not taking the audio as fast as it comes (over 4 MiB waiting)',
  });
  expect(await socket.closed).toBe(1000);
});
