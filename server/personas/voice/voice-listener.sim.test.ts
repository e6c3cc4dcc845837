/**
 * The voice listener end to end against the simulator and the fakes: an espeak-ng utterance
 * fed through the file source becomes a transcript, a turn of the persona "voice" and a spoken
 * answer (the simulator played it), with the `speaking` hold taken before the audio and let go
 * 0.8 s after it; the latched stop cuts it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentLogRow } from '../../agent/agent-log.ts';
import { until } from '../../motion/testing/rig.ts';
import { createManualClock } from '../../testing/manual-clock.ts';
import { startVoiceRig, type VoiceRig } from './testing/voice-rig.ts';

let v: VoiceRig | undefined;
afterEach(async () => {
  await v?.close();
  v = undefined;
});

const voiceRows = (r: VoiceRig): AgentLogRow[] =>
  r.rig.agent.agentLog.page({ n: 100 }).filter((row) => row.persona === 'voice');
const sayPlays = (r: VoiceRig) => r.rig.sim.counters().soundsPlayed.filter((p) => p.file.includes('cockpit-say'));

describe('voice listener (simulator, fake model, fake transcription)', () => {
  it('turns a spoken question into a transcript, a turn and a spoken answer, holding speaking around it', async () => {
    v = await startVoiceRig('Hello robot, what is your name?', 'Hello robot, what is your name?');
    const r = v;
    r.listener.apply();
    await until(() => r.holds.some((h) => h.op === 'release'), 20_000);
    await r.listener.settled();

    const request = r.stt.requests[0]!;
    expect(request).toMatchObject({ model: 'whisper-1', sampleRate: 16_000, channels: 1 });
    expect(request.seconds).toBeGreaterThan(1);
    expect(r.rig.fake.requests[0]?.lastUserText).toBe('Hello robot, what is your name?');
    expect(r.rig.fake.requests[0]?.toolNames).not.toContain('use_device');

    const rows = voiceRows(r).map((row) => [row.role, row.text, row.error ?? false]);
    expect(rows).toContainEqual(['user', 'Hello robot, what is your name?', false]);
    expect(rows).toContainEqual(['assistant', 'You said: Hello robot, what is your name?', false]);
    expect(rows[0]?.[1]).toMatch(/^Listening on file /);

    const plays = sayPlays(r);
    expect(plays).toHaveLength(1);
    const clipMs = plays[0]!.seconds! * 1000;
    const [take, ...rest] = r.holds;
    const release = rest.at(-1)!;
    expect(take?.op).toBe('take');
    expect(take!.at).toBeLessThanOrEqual(plays[0]!.startedAt);
    expect(release.op).toBe('release');
    // Released 0.8 s after the clip ended (timer slack allowed, never early).
    expect(release.at - plays[0]!.startedAt).toBeGreaterThanOrEqual(clipMs + 800 - 20);
    expect(release.at - plays[0]!.startedAt).toBeLessThan(clipMs + 800 + 1000);
    expect(r.listener.status()).toMatchObject({
      state: 'ended',
      utterances: 1,
      lastTranscript: { text: 'Hello robot, what is your name?' },
    });
    expect(r.rig.robot.services.get('voice')).toEqual({
      state: 'stopped',
      detail: expect.stringMatching(/^voice: file .* ended$/),
    });
  });

  it('is cut by the latched stop while it speaks: hold released at once, speech silenced, listener paused', async () => {
    // The listener's timers stand still: the answer cannot end by itself, nor its hold by the tail.
    const clock = createManualClock();
    v = await startVoiceRig('Tell me a long story please.', 'Tell me a long story please.', {
      schedule: clock.schedule,
    });
    const r = v;
    const story =
      'Once upon a time a small robot sat on a desk and looked at the world, one antenna at a time. '.repeat(3);
    r.rig.fake.setScript(() => ({ kind: 'answer', text: story }));
    r.rig.control.autonomy.register('voice', r.listener);
    r.listener.apply();
    await until(() => sayPlays(r).length === 1, 20_000);
    const stops = r.rig.sim.counters().soundStops;
    expect(r.holds.filter((h) => h.op === 'release')).toEqual([]);
    await r.rig.control.stop('token');
    // "At once": by the stop itself, with no timer of the listener run (its clock never moved),
    // so not by the answer's end nor after the 0.8 s tail a normal end waits.
    expect(r.holds.filter((h) => h.op === 'release')).toHaveLength(1);
    expect(sayPlays(r)[0]!.seconds! * 1000).toBeGreaterThan(3000);
    expect(r.rig.sim.counters().soundStops).toBeGreaterThan(stops);
    // The aborted turn unwinds on its own (its phase is "speaking" until then): paused once it has.
    await r.listener.settled();
    expect(r.listener.status().state).toBe('paused');
    expect(r.rig.robot.services.get('voice')?.state).toBe('paused');
    expect(r.holds.filter((h) => h.op === 'release')).toHaveLength(1);
  });

  it('is cut by the latched stop while it thinks: the turn ends and nothing is spoken', async () => {
    v = await startVoiceRig('What do you think?', 'What do you think?');
    const r = v;
    r.rig.fake.setScript(() => ({ kind: 'hang' }));
    r.rig.control.autonomy.register('voice', r.listener);
    r.listener.apply();
    await until(() => r.listener.status().state === 'thinking', 20_000);
    await r.rig.control.stop('token');
    await r.listener.settled();
    expect(sayPlays(r)).toEqual([]);
    expect(r.holds).toEqual([]);
    const failed = voiceRows(r).find((row) => row.role === 'assistant' && row.error);
    expect(failed?.text).toMatch(/paused \(latched stop or demo mode\)|stopped by the operator/);
    expect(r.rig.sim.counters()).toMatchObject({ mediaReleases: 0, mediaAcquires: 0 });
  });
});
