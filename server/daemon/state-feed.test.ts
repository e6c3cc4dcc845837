/**
 * The state feed's silence watchdog on manual clocks: the simulator's (its state stream sends a
 * frame only when its time moves) and the feed's (its watchdog fires only when the test moves
 * it). "Silent" then means a count of the feed's milliseconds, not a wait.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import { eventually } from '../testing/eventually.ts';
import { freePort } from '../testing/free-port.ts';
import { createManualClock, type ManualClock } from '../testing/manual-clock.ts';
import { HttpDaemonClient } from './daemon-client.ts';
import { StateFeed } from './state-feed.ts';

let simClock: ManualClock;
let feedClock: ManualClock;
let sim: SimDaemon;
let daemon: HttpDaemonClient;
let feed: StateFeed;

beforeEach(async () => {
  simClock = createManualClock();
  feedClock = createManualClock();
  sim = await startSimDaemon({ clock: simClock });
  daemon = new HttpDaemonClient({ baseUrl: sim.url });
  feed = new StateFeed({ daemon, log: silentLog, silenceMs: 1500, clock: feedClock });
});
afterEach(async () => {
  feed.stop();
  await daemon.close();
  await sim.close();
});

describe('state feed', () => {
  it('calls a stream silent after silenceMs of its own clock, not before, then opens a new one', async () => {
    let samples = 0;
    feed.onSample(() => void (samples += 1));
    feed.start();
    // The simulator sends one frame as the socket opens, then nothing while its time stands still.
    await eventually(() => samples === 1, { what: 'the first state frame' });
    expect(feed.snapshot()).toMatchObject({ presence: 'connected', streamConnected: true, lastError: null });

    feedClock.advance(1499);
    expect(feed.snapshot().lastError).toBeNull();
    expect(feed.snapshot().lastErrorAt).toBeNull();
    expect(sim.counters().stateWsClients).toBe(1);

    feedClock.advance(1);
    expect(feed.snapshot()).toMatchObject({
      presence: 'reconnecting',
      streamConnected: false,
      lastError: 'state stream silent for 1500 ms',
      // Stamped, so a health reader can tell an old error from a present one.
      lastErrorAt: feedClock.now(),
    });
    // The dead socket closes, then the reconnect waits on the feed's backoff (250 ms of its time
    // at first): each check moves the feed's clock on a quarter second until the new stream's
    // first frame is in.
    await eventually(
      () => {
        feedClock.advance(250);
        return samples === 2;
      },
      { what: 'the first frame of the new stream' },
    );
    expect(sim.counters().stateWsClients).toBe(1);
    expect(feed.snapshot()).toMatchObject({ presence: 'connected', streamConnected: true });
  });

  it('streams at the rest rate until watched, switches without a gap in its presence, and back', async () => {
    feed.stop();
    feed = new StateFeed({ daemon, log: silentLog, silenceMs: 1500, clock: feedClock, upstreamHz: 30, restHz: 10 });
    let samples = 0;
    feed.onSample(() => void (samples += 1));
    feed.start();
    await eventually(() => samples === 1, { what: 'the first state frame' });
    expect(sim.counters().stateStreamRates).toEqual([10]);

    feed.setWatched(true);
    // The new stream's first frame arrives as it opens; the old one is closed.
    await eventually(() => samples === 2 && sim.counters().stateStreamRates.join() === '30', {
      what: 'the full-rate stream alone',
    });
    expect(feed.snapshot()).toMatchObject({ presence: 'connected', streamConnected: true, lastError: null });
    // Watched again: already at the full rate, nothing reopens (the sample count proves it below).
    feed.setWatched(true);

    feed.setWatched(false);
    await eventually(() => samples === 3 && sim.counters().stateStreamRates.join() === '10', {
      what: 'the rest-rate stream alone',
    });
    expect(feed.snapshot()).toMatchObject({ presence: 'connected', streamConnected: true, lastError: null });
  });

  it('streams at the highest rate a reader asks for, and at the rest rate once every ask is withdrawn', async () => {
    feed.stop();
    feed = new StateFeed({ daemon, log: silentLog, silenceMs: 1500, clock: feedClock, upstreamHz: 30, restHz: 5 });
    let samples = 0;
    feed.onSample(() => void (samples += 1));
    feed.start();
    await eventually(() => samples === 1, { what: 'the first state frame' });
    expect(sim.counters().stateStreamRates).toEqual([5]);

    feed.demand('voice', 10);
    await eventually(() => samples === 2 && sim.counters().stateStreamRates.join() === '10', {
      what: 'the voice rate',
    });
    feed.setWatched(true);
    await eventually(() => samples === 3 && sim.counters().stateStreamRates.join() === '30', { what: 'the full rate' });
    // The dashboard leaves while the voice still asks: back to the voice's rate, not the rest rate.
    feed.setWatched(false);
    await eventually(() => samples === 4 && sim.counters().stateStreamRates.join() === '10', {
      what: 'the voice rate again',
    });
    expect(feed.snapshot().requestedHz).toBe(10);
    feed.demand('voice', undefined);
    await eventually(() => samples === 5 && sim.counters().stateStreamRates.join() === '5', { what: 'the rest rate' });
    expect(feed.snapshot()).toMatchObject({ presence: 'connected', requestedHz: 5, lastError: null });
  });

  it('a dashboard that comes while the stream is still opening gets the full rate once it opens', async () => {
    feed.stop();
    feed = new StateFeed({ daemon, log: silentLog, silenceMs: 1500, clock: feedClock, upstreamHz: 30, restHz: 10 });
    feed.start();
    // start() has only begun the handshake at the rest rate.
    feed.setWatched(true);
    expect(feed.snapshot().requestedHz).toBe(30);
    await eventually(() => sim.counters().stateStreamRates.join() === '30', { what: 'the full-rate stream alone' });
    expect(feed.snapshot()).toMatchObject({ presence: 'connected', lastError: null });
  });

  it('opens the stream as soon as the status says a daemon that was away runs again, not at the end of its backoff', async () => {
    const port = await freePort();
    const later = new HttpDaemonClient({ baseUrl: `http://127.0.0.1:${port}` });
    const clock = createManualClock();
    const own = new StateFeed({ daemon: later, log: silentLog, clock, statusIntervalMs: 100 });
    let back: SimDaemon | undefined;
    try {
      let samples = 0;
      own.onSample(() => void (samples += 1));
      own.start();
      // Nothing listens yet: the stream's retry (187 ms of the feed's time at the soonest) and the
      // next status read (100 ms) are both waiting on the feed's clock.
      await eventually(() => clock.pending() === 2 && own.snapshot().presence === 'down', {
        what: 'the stream and the status both refused',
      });
      back = await startSimDaemon({ port, clock: createManualClock() });
      clock.advance(100);
      await eventually(() => samples === 1, { what: 'the first frame, with the stream retry still due' });
      expect(own.snapshot()).toMatchObject({ presence: 'connected', streamConnected: true });
    } finally {
      own.stop();
      await later.close();
      await back?.close();
    }
  });
});
