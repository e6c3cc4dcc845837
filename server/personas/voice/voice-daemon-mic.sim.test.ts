/**
 * The voice listener on the robot's own microphone, end to end in a real cockpit with its
 * simulator: the default source is `daemon` (the camera is the daemon's WebRTC), the simulated
 * robot hears a sentence (/sim/microphone, espeak-ng), the listener detects it, the fake
 * transcription endpoint gets a WAV, a turn of persona "voice" runs on the fake model, the
 * answer is spoken through the say path with the `speaking` hold taken and released. The robot
 * never has its media released or acquired, never runs more than one camera session, and the
 * camera keeps its pictures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../agent/providers/testing/fake-openai.ts';
import { startHarness, until, type Harness } from '../../testing/cockpit-harness.ts';
import { startFakeTranscription, type FakeTranscription } from './testing/fake-transcription.ts';

const SAID = 'Hello robot, what is your name?';

let h: Harness;
let model: FakeOpenAi;
let stt: FakeTranscription;
let maxSessions = 0;
let watch: NodeJS.Timeout | undefined;
const speaking: { held: boolean; at: number }[] = [];

beforeAll(async () => {
  h = await startHarness();
  model = await startFakeOpenAi();
  stt = await startFakeTranscription({ key: 'sk-stt', script: () => SAID });
  const sim = h.cockpit.sim!;
  const tracking = h.cockpit.features.tracking;
  // Sessions and the speaking hold sampled every 10 ms for the whole test.
  watch = setInterval(() => {
    maxSessions = Math.max(maxSessions, sim.counters().cameraSessions);
    // The `speaking` hold as face tracking records it (it only pauses tracking while a face is
    // seen, so the hold table stays empty here; the speaking window is what the hold sets).
    const held = tracking.isSpeaking(0);
    if (held !== (speaking.at(-1)?.held ?? false)) speaking.push({ held, at: Date.now() });
  }, 10);
});

afterAll(async () => {
  clearInterval(watch);
  await h?.close();
  await model?.close();
  await stt?.close();
});

const put = (path: string, body: unknown) =>
  h.authed(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const voiceStatus = async () =>
  (
    (await (await h.authed('/api/console/personas')).json()) as {
      voice: { settings: { source: string }; status: Record<string, unknown> };
    }
  ).voice;
const snapshotTime = async (): Promise<number> => {
  const res = await h.get('/api/snapshot.jpg', { authorization: 'Bearer test-owner-token-0123456789abcdef' });
  expect(res.status).toBe(200);
  return Number(res.headers.get('x-captured-at'));
};

describe("voice listener on the daemon's microphone (cockpit + simulator)", () => {
  it('hears the robot, transcribes, answers aloud with the speaking hold, and leaves the camera alone', async () => {
    const sim = h.cockpit.sim!;
    expect((await voiceStatus()).settings.source).toBe('daemon');
    expect(
      (await put('/api/console/agent/settings', { provider: 'openai', baseUrl: model.url, model: 'fake-model' }))
        .status,
    ).toBe(200);
    const enabled = await put('/api/console/personas/voice', {
      enabled: true,
      transcription: { baseUrl: stt.url, model: 'whisper-1', key: 'sk-stt' },
    });
    expect(enabled.status).toBe(200);
    expect(await until(async () => (await voiceStatus()).status.state === 'listening', 20_000)).toBe(true);
    expect((await voiceStatus()).status.source).toBe(`daemon microphone (webrtc ${sim.cameraSignallingUrl})`);
    expect(sim.counters()).toMatchObject({ cameraSessions: 1, cameraAudioSessions: 1 });
    const pictureBefore = await snapshotTime();

    const saidAt = Date.now();
    expect((await h.sim('/sim/microphone', { text: SAID })).status).toBe(200);
    expect(await until(() => stt.requests.length > 0, 20_000)).toBe(true);
    const transcribedAt = Date.now();
    const says = () => sim.counters().soundsPlayed.filter((p) => p.file.includes('cockpit-say'));
    const spoken = () => says().length === 1 && speaking.length >= 2 && speaking.at(-1)?.held === false;
    expect(await until(spoken, 30_000)).toBe(true);

    expect(stt.requests).toHaveLength(1);
    expect(stt.requests[0]).toMatchObject({ model: 'whisper-1', sampleRate: 16_000, channels: 1 });
    expect(stt.requests[0]!.seconds).toBeGreaterThan(1);
    expect(model.requests[0]?.lastUserText).toBe(SAID);
    const rows = h.cockpit.features.agent.agentLog
      .page({ n: 100 })
      .filter((row) => row.persona === 'voice')
      .map((row) => [row.role, row.text]);
    expect(rows).toContainEqual(['user', SAID]);
    expect(rows).toContainEqual(['assistant', `You said: ${SAID}`]);
    // The hold came on no later than the answer's audio, once, and went off after the clip and
    // its 0.8 s tail (sampling every 10 ms: slack for a loaded machine).
    const play = says()[0]!;
    expect(speaking.map((s) => s.held)).toEqual([true, false]);
    expect(speaking[0]!.at).toBeLessThanOrEqual(play.startedAt + 50);
    expect(speaking[1]!.at - play.startedAt).toBeGreaterThanOrEqual(play.seconds! * 1000 + 800 - 50);

    // The camera kept delivering, through one session, and the robot's media were never touched.
    expect(await until(async () => (await snapshotTime()) > pictureBefore, 5000)).toBe(true);
    expect(maxSessions).toBe(1);
    expect(sim.counters()).toMatchObject({ mediaReleases: 0, mediaAcquires: 0, cameraSessions: 1 });
    console.log(
      `daemon microphone: /sim/microphone → transcription request ${transcribedAt - saidAt} ms ` +
        `(the clip lasts ${Math.round(stt.requests[0]!.seconds * 1000)} ms); camera sessions so far ${sim.counters().cameraSessionsTotal}`,
    );

    // Switched off: the robot stops encoding audio for us (after the 3 s linger), the camera goes on.
    expect((await put('/api/console/personas/voice', { enabled: false })).status).toBe(200);
    expect(
      await until(() => sim.counters().cameraAudioSessions === 0 && sim.counters().cameraSessions === 1, 15_000),
    ).toBe(true);
    const pictureAfter = await snapshotTime();
    expect(await until(async () => (await snapshotTime()) > pictureAfter, 5000)).toBe(true);
    expect(maxSessions).toBe(1);
    expect(sim.counters()).toMatchObject({ mediaReleases: 0, mediaAcquires: 0 });
  }, 120_000);
});
