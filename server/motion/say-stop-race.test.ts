/**
 * A say whose app-lock read is on its way when the STOP comes must not speak after the STOP: the
 * STOP silences speech, and a clip synthesised and played once it has answered would undo that.
 * The app-lock read is held until the STOP has answered, so a say that did not look at the latch
 * again would go on to the engine and the speaker.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SpeechEngine } from '../speech/engine.ts';
import { pcm16Wav } from '../speech/wav.ts';
import { startRig, until, type Rig } from './testing/rig.ts';

let rig: Rig;
const synthesised: string[] = [];
const engine: SpeechEngine = {
  name: 'test',
  synthesize(text) {
    synthesised.push(text);
    return Promise.resolve({ wav: pcm16Wav(Buffer.alloc(3200), 16_000), seconds: 0.1 });
  },
};
beforeAll(async () => {
  rig = await startRig({ engine });
});
afterAll(() => rig.close());

it('refuses a say that raced the STOP, and nothing is synthesised or played after it', async () => {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  const { appLockStatus } = rig.daemon;
  rig.daemon.appLockStatus = async () => {
    asked = true;
    await gate;
    return appLockStatus.call(rig.daemon);
  };
  try {
    const said = rig.control.say('after the stop', 'token').catch((error: unknown) => error);
    await until(() => asked);
    const stop = await rig.control.stop('token');
    expect(stop.latched).toBe(true);
    const playedAtStop = rig.sim.counters().soundsPlayed.length;
    release();
    expect(await said).toMatchObject({ code: 'STOP_LATCHED' });
    expect(synthesised).toEqual([]);
    expect(rig.sim.counters().soundsPlayed).toHaveLength(playedAtStop);
    // The speaker still works once resumed: the refusal was the latch, not a broken speaker.
    rig.control.resume('token');
    await rig.control.say('after the resume', 'token');
    expect(synthesised).toEqual(['after the resume']);
    expect(rig.sim.counters().soundsPlayed).toHaveLength(playedAtStop + 1);
  } finally {
    rig.daemon.appLockStatus = appLockStatus;
  }
});
