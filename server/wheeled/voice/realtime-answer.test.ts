import { afterEach, expect, it } from 'vitest';
import type { VoiceServerFrame } from '../../contract/wheeled.ts';
import { silentLog } from '../../log.ts';
import { eventually } from '../../testing/eventually.ts';
import { createManualClock } from '../../testing/manual-clock.ts';
import { ANSWER_SILENCE_MS, createRealtimeVoice } from './realtime-voice.ts';
import { startFakeRealtime, type FakeRealtime } from './testing/fake-realtime.ts';

let fake: FakeRealtime | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A realtime session against the fake endpoint, its timers on a clock the test moves. */
async function session(options: { mute: boolean }) {
  fake = await startFakeRealtime({ key: 'rt-key', ...options });
  const clock = createManualClock();
  const frames: VoiceServerFrame[] = [];
  let ended = false;
  const voice = createRealtimeVoice({
    io: { send: (frame) => frames.push(frame), end: () => (ended = true) },
    config: { url: fake.url, key: 'rt-key', model: 'gpt-realtime', voice: 'alloy' },
    instructions: 'be brief',
    log: silentLog,
    schedule: clock.schedule,
  });
  return { voice, clock, frames, ended: () => ended, endpoint: fake };
}

it('ends the session when the endpoint takes the request and then says nothing while the answer is due', async () => {
  const { voice, clock, frames, ended, endpoint } = await session({ mute: true });
  voice.stop();
  await eventually(() => endpoint.events.some((e) => e.type === 'response.create'));
  clock.advance(ANSWER_SILENCE_MS - 1);
  expect(frames.filter((f) => f.type === 'error')).toEqual([]);
  clock.advance(1);
  expect(frames.at(-1)).toEqual({
    type: 'error',
    error: 'the realtime endpoint said nothing for 30 s while an answer was due',
  });
  expect(ended()).toBe(true);
  await endpoint.disconnected();
});

it('keeps the deadline off once the answer is done', async () => {
  const { voice, clock, frames } = await session({ mute: false });
  voice.text('hello');
  await eventually(() => frames.some((f) => f.type === 'done'));
  expect(clock.pending()).toBe(0);
  voice.close();
});
