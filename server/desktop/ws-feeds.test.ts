import { describe, expect, it } from 'vitest';
import type { Health } from '../contract/health.ts';
import { startBroadcast } from '../http/broadcast-ticker.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { desktopFeeds } from './ws-feeds.ts';

describe('desktop /ws feeds', () => {
  it('sends a state frame every tick from the cached JSON and a health frame once a second', () => {
    const clock = createManualClock(0);
    const frames: (string | object)[] = [];
    const hub = {
      clients: () => new Set([1]) as never,
      broadcast: (_path: string, frame: string | object) => (frames.push(frame), 1),
      onClientsChanged: () => () => undefined,
    };
    let json: string | undefined = undefined;
    const robot = { stateJson: () => json, health: () => ({ ok: true }) as unknown as Health };
    const stop = startBroadcast({ clock, hz: 15, hub, path: '/ws', feeds: desktopFeeds(robot) });
    // Before the first state arrives, the health frame alone tells the dashboard how things are.
    clock.advance(1000);
    expect(frames).toEqual([{ type: 'health', ok: true }]);
    json = '{"motorMode":"enabled"}';
    clock.advance(1000);
    stop();
    const states = frames.filter((f) => typeof f === 'string');
    expect(states).toHaveLength(15);
    expect(JSON.parse(states[0] as string)).toEqual({ type: 'state', motorMode: 'enabled' });
    expect(frames.filter((f) => typeof f !== 'string')).toHaveLength(2);
  });
});
