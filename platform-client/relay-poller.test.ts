import { describe, expect, it } from 'vitest';
import type { DeviceApi } from './device-api.ts';
import { createRelayPoller } from './relay-poller.ts';
import type { RelayMessage } from './relay-handler.ts';

const quietLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A device transport whose relay claims answer the given rows. */
function claimsAnswering(rows: unknown[]): DeviceApi {
  return {
    call: async () => ({ ok: true, value: { status: 200, body: { messages: rows } } }),
    deviceId: () => 'device-1',
  };
}

const invoke = (id: number) => ({ id, payload: JSON.stringify({ type: 'invoke', prompt: `wave ${id}` }) });

describe('relay poller', () => {
  it('runs no more envelopes than the claim asked for; the rest are declined, up to the 50 a claim may hold', async () => {
    const ran: RelayMessage[] = [];
    const declined: Array<{ id: string; reason: string }> = [];
    let finish = (): void => undefined;
    const turnsEnd = new Promise<void>((resolve) => (finish = resolve));
    const poller = createRelayPoller({
      api: claimsAnswering(Array.from({ length: 400 }, (_, i) => invoke(i))),
      handle: (message) => {
        ran.push(message);
        return turnsEnd;
      },
      decline: async (message, reason) => void declined.push({ id: message.id, reason }),
      live: () => true,
      log: quietLog,
    });
    await poller.tick();
    expect(ran.map((m) => m.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(declined).toHaveLength(45);
    expect(declined[0]).toEqual({ id: '5', reason: 'the robot asked for at most 5 envelope(s); nothing was run' });
    finish();
    await poller.drain();
  });

  it('runs an envelope handed over twice once, whether twice in one claim or again in a later one', async () => {
    const ran: string[] = [];
    const declined: string[] = [];
    const poller = createRelayPoller({
      api: claimsAnswering([invoke(7), invoke(7), invoke(8)]),
      handle: async (message) => void ran.push(message.id),
      decline: async (message) => void declined.push(message.id),
      live: () => true,
      log: quietLog,
    });
    await poller.tick();
    await poller.drain();
    await poller.tick();
    await poller.drain();
    expect(ran).toEqual(['7', '8']);
    expect(declined).toEqual([]);
  });
});
