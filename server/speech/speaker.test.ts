import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpDaemonClient } from '../daemon/daemon-client.ts';
import { silentLog } from '../log.ts';
import type { TimerClock } from '../clock.ts';
import { recordingHolds, until } from '../motion/testing/rig.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { eventually } from '../testing/eventually.ts';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import type { SpeechEngine } from './engine.ts';
import { createEspeakEngine } from './espeak.ts';
import { createSpeaker, SPEAKING_TAIL_MS, type SpeakerDeps } from './speaker.ts';
import { createHoldTable } from '../perception/holds.ts';

let sim: SimDaemon;
let client: HttpDaemonClient;
beforeAll(async () => {
  sim = await startSimDaemon();
  client = new HttpDaemonClient({ baseUrl: sim.url });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});

/** The daemon calls in order, with the wobble's on/off spelled out. */
function recordingDaemon(calls: string[]): SpeakerDeps['daemon'] {
  return {
    uploadSound: (name, data) => (calls.push(`upload ${name}`), client.uploadSound(name, data)),
    playSound: (file) => (calls.push('play'), client.playSound(file)),
    stopSound: () => (calls.push('stop_sound'), client.stopSound()),
    setWobbling: (on) => (calls.push(`wobble ${on ? 'on' : 'off'}`), client.setWobbling(on)),
  };
}

/**
 * A speaker whose first clip's play is slow on its way to the daemon: it waits until `release()`,
 * while the stop's stop_sound, on another connection, may overtake it. Later plays go straight.
 */
function slowFirstPlay(calls: string[], holds: SpeakerDeps['holds'] = recordingHolds(), clock = createManualClock()) {
  const daemon = recordingDaemon(calls);
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let playing = false;
  const speaker = createSpeaker({
    daemon: {
      ...daemon,
      playSound: async (file) => {
        if (!playing) {
          playing = true;
          await gate;
        }
        return daemon.playSound(file);
      },
    },
    engine: createEspeakEngine(),
    holds,
    log: silentLog,
    clock,
  });
  return { speaker, clock, release: () => release(), playing: () => playing };
}

function rig(engine: SpeechEngine = createEspeakEngine(), clock?: TimerClock) {
  const calls: string[] = [];
  const holds = recordingHolds();
  const speaker = createSpeaker({
    daemon: recordingDaemon(calls),
    engine,
    holds,
    log: silentLog,
    ...(clock ? { clock } : {}),
  });
  return { calls, holds, speaker };
}

describe('speaker', () => {
  it('uploads, wobbles while the clip plays, holds tracking through the clip and its tail, then lets go', async () => {
    const clock = createManualClock();
    const { calls, holds, speaker } = rig(createEspeakEngine(), clock);
    const result = await speaker.say('Good morning.');
    expect(result.engine).toBe('espeak-ng');
    const played = sim.counters().soundsPlayed.at(-1);
    expect(played?.file).toBe('cockpit-say-a.wav');
    expect(played?.seconds).toBeCloseTo(result.seconds, 2);
    expect(calls).toEqual(['upload cockpit-say-a.wav', 'wobble on', 'play']);
    // Taken before the play goes out, and again from when the daemon says the clip plays.
    expect(holds.calls).toMatchObject([
      { op: 'take', name: 'speaking' },
      { op: 'take', name: 'speaking' },
    ]);
    expect(holds.calls[0]?.ttl).toBeCloseTo(result.seconds + 1, 2);
    expect(holds.calls[1]?.ttl).toBeCloseTo(result.seconds + 1, 2);
    expect(speaker.speaking()).toBe(true);
    clock.advance(result.seconds * 1000);
    await until(() => !speaker.speaking() && calls.includes('wobble off'));
    // The clip's end takes the hold again for the tail in the same step: never a release between
    // (the voice persona's own tail relies on it, server/personas/voice/speaking-hold.ts).
    expect(holds.calls.map((c) => c.op)).toEqual(['take', 'take', 'take']);
    expect(holds.live()).toEqual(['speaking']);
    clock.advance(SPEAKING_TAIL_MS - 1);
    expect(holds.live()).toEqual(['speaking']);
    clock.advance(1);
    expect(holds.calls.map((c) => c.op)).toEqual(['take', 'take', 'take', 'release']);
    expect(holds.live()).toEqual([]);
  });

  it('a new utterance interrupts the previous one: its sound stops, one wobble, one hold', async () => {
    const clock = createManualClock();
    const { calls, holds, speaker } = rig(createEspeakEngine(), clock);
    const first = await speaker.say('This is a rather long first sentence that will be cut off.');
    const second = await speaker.say('Second.');
    expect(calls).toEqual([
      'upload cockpit-say-a.wav',
      'wobble on',
      'play',
      'upload cockpit-say-b.wav',
      'stop_sound',
      'wobble on',
      'play',
    ]);
    expect(sim.counters().soundsPlayed.at(-2)?.stoppedAt).toBeDefined();
    // The first clip's end no longer turns the wobble off under the second: past both ends,
    // only the second clip's end has run.
    expect(first.seconds).toBeGreaterThan(second.seconds + 0.5);
    clock.advance(first.seconds * 1000 + 1000);
    await until(() => !speaker.speaking() && calls.includes('wobble off'));
    expect(calls.filter((c) => c === 'wobble off')).toHaveLength(1);
    expect(clock.pending()).toBe(0);
    expect(holds.live()).toEqual([]);
  });

  it('stop silences the speaker and fails a say still being synthesised', async () => {
    const slow: SpeechEngine = {
      name: 'slow',
      synthesize: (_text, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { code: 'CONFLICT' })));
        }),
    };
    const { calls, speaker } = rig(slow);
    const pending = speaker.say('never heard').catch((err: unknown) => err);
    expect(await speaker.stop()).toEqual({});
    expect(await pending).toMatchObject({ code: 'CONFLICT' });
    expect(calls).toEqual(['stop_sound', 'wobble off']);
  });

  it('a stop while a new utterance silences the one before it: the new one neither wobbles nor plays', async () => {
    const clock = createManualClock();
    const calls: string[] = [];
    const daemon = recordingDaemon(calls);
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holdNext = false;
    const speaker = createSpeaker({
      daemon: {
        ...daemon,
        stopSound: async () => {
          if (holdNext) {
            holdNext = false;
            calls.push('stop_sound held');
            await gate;
          }
          return daemon.stopSound();
        },
      },
      engine: createEspeakEngine(),
      holds: recordingHolds(),
      log: silentLog,
      clock,
    });
    await speaker.say('The first sentence, still playing.');
    holdNext = true;
    const second = speaker.say('Second.').catch((err: unknown) => err);
    await until(() => calls.includes('stop_sound held'));
    expect(await speaker.stop()).toEqual({});
    const afterStop = calls.length;
    release();
    expect(await second).toMatchObject({ code: 'CONFLICT' });
    // Only the held silencing of the first clip lands late; the second sends nothing audible.
    expect(calls.slice(afterStop)).toEqual(['stop_sound']);
  });

  it('a clip whose play reaches the daemon after the stop is silenced once it has landed', async () => {
    const calls: string[] = [];
    const { speaker, release, playing } = slowFirstPlay(calls);
    const playsBefore = sim.counters().soundsPlayed.length;
    const said = speaker.say('Overtaken.').catch((err: unknown) => err);
    await until(playing);
    expect(await speaker.stop()).toEqual({});
    release();
    expect(await said).toMatchObject({ code: 'CONFLICT' });
    const plays = sim.counters().soundsPlayed;
    expect(plays).toHaveLength(playsBefore + 1);
    const played = plays.at(-1);
    expect(played?.file).toBe('cockpit-say-a.wav');
    expect(played?.stoppedAt).toBeDefined();
    expect(calls.filter((c) => c.startsWith('wobble')).at(-1)).toBe('wobble off');
  });

  it('a stop after a newer utterance also silences the interrupted clip whose play lands after it', async () => {
    const calls: string[] = [];
    // The first clip's play is slow on its way; the second utterance and the stop come meanwhile.
    const { speaker, release, playing } = slowFirstPlay(calls);
    const playsBefore = sim.counters().soundsPlayed.length;
    const first = speaker.say('Interrupted while on its way.').catch((err: unknown) => err);
    await eventually(playing, { what: 'the first play on its way' });
    const second = speaker.say('Second.').catch((err: unknown) => err);
    expect(await speaker.stop()).toEqual({});
    expect(await second).toMatchObject({ code: 'CONFLICT' });
    release();
    expect(await first).toMatchObject({ code: 'CONFLICT' });
    const plays = sim.counters().soundsPlayed;
    expect(plays).toHaveLength(playsBefore + 1);
    expect(plays.at(-1)?.stoppedAt).toBeDefined();
    expect(calls.filter((c) => c.startsWith('wobble')).at(-1)).toBe('wobble off');
  });

  it('never uploads over the clip still playing when two utterances interrupt it in a row', async () => {
    const clock = createManualClock();
    const calls: string[] = [];
    const daemon = recordingDaemon(calls);
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holdNext = false;
    /** The file of the last play, until a stop_sound: what the daemon may still be playing. */
    let playing: string | undefined;
    const speaker = createSpeaker({
      daemon: {
        uploadSound: async (name, data) => {
          if (name === playing) calls.push(`upload over the playing ${name}`);
          if (holdNext) {
            holdNext = false;
            calls.push('upload held');
            await gate;
          }
          return daemon.uploadSound(name, data);
        },
        playSound: async (file) => {
          playing = file.split('/').at(-1);
          return daemon.playSound(file);
        },
        stopSound: async () => {
          playing = undefined;
          return daemon.stopSound();
        },
        setWobbling: daemon.setWobbling,
      },
      engine: createEspeakEngine(),
      holds: recordingHolds(),
      log: silentLog,
      clock,
    });
    await speaker.say('The first sentence, still playing.');
    expect(playing).toBe('cockpit-say-a.wav');
    // The second is interrupted while its upload is on its way: it never stops the first clip.
    holdNext = true;
    const second = speaker.say('Second, never heard.').catch((err: unknown) => err);
    await eventually(() => calls.includes('upload held'), { what: 'the second upload on its way' });
    const third = speaker.say('Third.');
    release();
    expect(await second).toMatchObject({ code: 'CONFLICT' });
    const { seconds } = await third;
    expect(calls.filter((c) => c.startsWith('upload over'))).toEqual([]);
    // What plays is the third clip, the first one stopped before it.
    const plays = sim.counters().soundsPlayed;
    expect(plays.at(-2)?.stoppedAt).toBeDefined();
    expect(plays.at(-1)?.seconds).toBeCloseTo(seconds, 2);
  });

  it('holds tracking to the end of a clip whose play the daemon answered late', async () => {
    const clock = createManualClock();
    const table = createHoldTable(clock);
    const calls: string[] = [];
    const holds = {
      take: (name: string, ttl: number) => table.set(name, ttl),
      release: (name: string) => void table.clear(name),
    };
    const { speaker, release, playing } = slowFirstPlay(calls, holds, clock);
    const said = speaker.say('A busy daemon.');
    await eventually(playing, { what: 'the play on its way' });
    // The daemon takes 3 s to answer the play; the clip starts then.
    clock.advance(3000);
    release();
    const { seconds } = await said;
    clock.advance(seconds * 1000 - 1);
    expect(speaker.speaking()).toBe(true);
    expect(table.has('speaking')).toBe(true);
    clock.advance(1);
    await eventually(() => calls.includes('wobble off'), { what: 'the clip to end' });
    expect(table.has('speaking')).toBe(true);
  });

  it('releases the hold and reports the daemon error when playback fails', async () => {
    const { holds, speaker } = rig();
    await fetch(`${sim.url}/sim/backend`, {
      method: 'POST',
      body: '{"action":"stop"}',
      headers: { 'content-type': 'application/json' },
    });
    await until(async () => (await fetch(`${sim.url}/api/motors/status`)).status === 503, 5000);
    await expect(speaker.say('nobody hears this')).rejects.toMatchObject({ code: 'DAEMON_STOPPED' });
    expect(holds.live()).toEqual([]);
    expect(await speaker.stop()).toMatchObject({ error: 'the robot daemon backend is not running' });
    await fetch(`${sim.url}/sim/backend`, {
      method: 'POST',
      body: '{"action":"start"}',
      headers: { 'content-type': 'application/json' },
    });
  });
});
