import { describe, expect, it } from 'vitest';
import { describeLink, describeTrouble, STALE_AFTER_MS, type LinkInput } from './link-status.ts';

const live: LinkInput = { socket: 'connected', daemon: 'connected', ageMs: 40 };

describe('describeLink', () => {
  it.each([
    [{ ...live }, 'Live', 'ok'],
    [{ ...live, ageMs: STALE_AFTER_MS + 1 }, 'Stale', 'warn'],
    [{ ...live, daemon: 'down' }, 'Daemon down', 'bad'],
    [{ ...live, daemon: 'reconnecting' }, 'Daemon reconnecting', 'warn'],
    [{ ...live, daemon: 'connecting' }, 'Daemon connecting', 'idle'],
    [{ ...live, daemon: null, ageMs: null }, 'Waiting for state', 'idle'],
    [{ ...live, socket: 'connecting' }, 'Connecting', 'idle'],
    [{ ...live, socket: 'reconnecting' }, 'Reconnecting', 'warn'],
    [{ ...live, socket: 'down' }, 'Cockpit unreachable', 'bad'],
    [{ ...live, socket: 'unauthorized' }, 'Signed out', 'bad'],
  ] as [LinkInput, string, string][])('%j → %s (%s)', (input, label, tone) => {
    expect(describeLink(input)).toEqual({ label, tone });
  });

  it('judges the socket before the daemon presence it last heard', () => {
    expect(describeLink({ socket: 'reconnecting', daemon: 'down', ageMs: 10 }).label).toBe('Reconnecting');
  });
});

describe('describeTrouble', () => {
  it('says nothing while live or still connecting', () => {
    expect(describeTrouble(live, null)).toBeNull();
    expect(describeTrouble({ socket: 'connecting', daemon: null, ageMs: null }, null)).toBeNull();
  });

  it('counts down to the next socket attempt and offers a retry', () => {
    expect(describeTrouble({ ...live, socket: 'reconnecting' }, 2500)).toEqual({
      tone: 'warn',
      title: 'Connection to the cockpit lost',
      detail: 'Reconnecting in 3 s. The values shown are the last ones received.',
      canRetry: true,
    });
  });

  it('tells a person when no state ever arrived', () => {
    expect(describeTrouble({ socket: 'down', daemon: null, ageMs: null }, 0)?.detail).toMatch(
      /^Trying again now\..*No robot state has arrived yet\.$/,
    );
  });

  it('reports a down daemon behind a live socket without a retry button', () => {
    expect(describeTrouble({ ...live, daemon: 'down' }, null)).toMatchObject({
      tone: 'bad',
      title: 'The robot daemon is down',
      canRetry: false,
    });
  });

  it('reports a frozen feed', () => {
    expect(describeTrouble({ ...live, ageMs: 5000 }, null)?.title).toBe('Robot state is not updating');
  });
});
