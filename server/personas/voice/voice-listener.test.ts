/**
 * The voice listener's rules with scripted audio and a hand-stepped clock: restarts after a
 * failure (5 s doubling), no daemon call from a source that cannot start, mute, half duplex,
 * and problems shown in the agent log.
 */
import { describe, expect, it } from 'vitest';
import type { NewRow } from '../../agent/log-row.ts';
import type { ServiceState } from '../../contract/state.ts';
import { silentLog } from '../../log.ts';
import { parseSay } from '../../motion/control-input.ts';
import { startSimDaemon } from '../../sim/index.ts';
import { createManualSchedule } from '../testing/manual-schedule.ts';
import type { AudioHandlers, AudioSource } from './audio-source.ts';
import { createFrameHub } from '../../camera/index.ts';
import { createDeviceSource } from '../../camera/sources/device-source.ts';
import { createAudioSource } from './make-audio-source.ts';
import { SPEAKING_TAIL_MS } from './speaking-hold.ts';
import { synth } from './testing/synthetic-audio.ts';
import { createVoiceListener, type VoiceListenerDeps } from './voice-listener.ts';
import { VOICE_DEFAULTS, type VoiceConfig } from './voice-settings.ts';
import { eventually } from '../../testing/eventually.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));
const utterance = () => synth([{ silence: 300 }, { tone: 800 }, { silence: 1000 }]);

function scripted() {
  const starts: AudioHandlers[] = [];
  let stops = 0;
  const source: AudioSource = {
    name: 'scripted mic',
    start: (h) => void starts.push(h),
    stop: () => void (stops += 1),
  };
  return { source, starts, stops: () => stops, last: () => starts.at(-1)! };
}

function build(overrides: Partial<VoiceListenerDeps> = {}, config: Partial<VoiceConfig> = {}) {
  const clock = createManualSchedule(0);
  const mic = scripted();
  const rows: NewRow[] = [];
  const prompts: string[] = [];
  const spoken: string[] = [];
  const holds: string[] = [];
  const settings = { ...VOICE_DEFAULTS, enabled: true, ...config };
  const listener = createVoiceListener({
    settings: { current: () => settings },
    runtime: {
      start: (request) => {
        prompts.push(request.prompt);
        return { rowId: 1, done: Promise.resolve({ ok: true, text: `echo ${request.prompt}`, seconds: 0 }) };
      },
    },
    agentLog: { add: (row) => (rows.push(row), { id: rows.length, append() {}, update() {}, finish() {} }) },
    say: async (text) => (spoken.push(text), { seconds: 2 }),
    holds: { take: (n) => void holds.push(`take ${n}`), release: (n) => void holds.push(`release ${n}`) },
    log: silentLog,
    makeSource: () => mic.source,
    makeTranscriber: () => ({ transcribe: async () => 'hello robot' }),
    schedule: clock.schedule,
    now: clock.now,
    ...overrides,
  });
  return { listener, clock, mic, rows, prompts, spoken, holds, settings };
}

describe('voice listener', () => {
  it('restarts a failing source after 5 s, then 10 s, then 20 s, and stops retrying when switched off', () => {
    const t = build();
    t.listener.apply();
    expect(t.mic.starts).toHaveLength(1);
    t.mic.last().end('ffmpeg ended (code 1): default: No such device');
    expect(t.listener.status()).toMatchObject({ state: 'failed', failures: 1, retryAt: new Date(5000).toISOString() });
    expect(t.listener.status().detail).toBe('ffmpeg ended (code 1): default: No such device; retrying in 5 s');
    expect(t.rows.at(-1)).toMatchObject({ role: 'assistant', persona: 'voice', error: true });
    t.clock.advance(4999);
    expect(t.mic.starts).toHaveLength(1);
    t.clock.advance(1);
    expect(t.mic.starts).toHaveLength(2);
    t.mic.last().end('again');
    t.clock.advance(9999);
    expect(t.mic.starts).toHaveLength(2);
    t.clock.advance(1);
    t.mic.last().end('again');
    expect(t.listener.status().detail).toMatch(/retrying in 20 s$/);
    // An unrelated edit does not cut the wait short.
    t.listener.apply();
    expect(t.mic.starts).toHaveLength(3);
    t.settings.enabled = false;
    t.listener.apply();
    t.clock.advance(600_000);
    expect(t.mic.starts).toHaveLength(3);
    expect(t.listener.status()).toMatchObject({ state: 'off', failures: 0, retryAt: null });
  });

  it('hears an utterance, speaks the answer, and drops what the microphone hears while it speaks', async () => {
    const t = build();
    t.listener.apply();
    t.mic.last().pcm(utterance());
    await tick();
    expect(t.listener.status()).toMatchObject({
      state: 'speaking',
      utterances: 1,
      lastTranscript: { text: 'hello robot' },
    });
    expect(t.prompts).toEqual(['hello robot']);
    expect(t.spoken).toEqual(['echo hello robot']);
    // Its own answer, heard by its own microphone, is not an utterance.
    t.mic.last().pcm(utterance());
    t.clock.advance(2000);
    await tick();
    // Within the 0.8 s tail: still its own voice.
    t.mic.last().pcm(utterance());
    expect(t.holds).toEqual(['take speaking', 'take speaking', 'take speaking']);
    t.clock.advance(800);
    expect(t.holds.at(-1)).toBe('release speaking');
    await t.listener.settled();
    expect(t.listener.status()).toMatchObject({ state: 'listening', utterances: 1 });
    t.mic.last().pcm(utterance());
    await tick();
    expect(t.prompts).toHaveLength(2);
  });

  it('drops what the microphone hears while the robot says anything else, and for the tail after it', async () => {
    let busy = false;
    const t = build({ speakerBusy: () => busy });
    t.listener.apply();
    // A say from the dashboard, a tool or another persona: the robot's own words, not a person's.
    busy = true;
    t.mic.last().pcm(utterance());
    await tick();
    expect(t.prompts).toEqual([]);
    busy = false;
    t.mic.last().pcm(synth([{ silence: 20 }]));
    t.clock.advance(SPEAKING_TAIL_MS - 1);
    t.mic.last().pcm(utterance());
    await tick();
    expect(t.prompts).toEqual([]);
    t.clock.advance(1);
    t.mic.last().pcm(utterance());
    await tick();
    expect(t.prompts).toEqual(['hello robot']);
  });

  it('tells `heard` what it understood and how long it was, before the turn runs', async () => {
    const heard: Array<{ text: string; durationS: number; promptsBefore: number }> = [];
    const prompts: string[] = [];
    const t = build({
      heard: (h) => void heard.push({ ...h, promptsBefore: prompts.length }),
      runtime: {
        start: (request) => {
          prompts.push(request.prompt);
          return { rowId: 1, done: Promise.resolve({ ok: true, text: 'fine', seconds: 0 }) };
        },
      },
    });
    t.listener.apply();
    // 1.5 s of speech between silences: the detector keeps about that much, whole seconds counted.
    t.mic.last().pcm(synth([{ silence: 300 }, { tone: 1500 }, { silence: 1000 }]));
    await tick();
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ text: 'hello robot', promptsBefore: 0 });
    expect(heard[0]!.durationS).toBeGreaterThanOrEqual(1);
    expect(heard[0]!.durationS).toBeLessThanOrEqual(3);
    expect(Number.isInteger(heard[0]!.durationS)).toBe(true);
    expect(prompts).toEqual(['hello robot']);
  });

  it('closes the microphone while muted and opens it again when unmuted', () => {
    const t = build();
    t.listener.apply();
    t.settings.muted = true;
    t.listener.apply();
    expect(t.mic.stops()).toBe(1);
    expect(t.listener.status()).toMatchObject({ state: 'muted', detail: 'muted: not listening' });
    t.settings.muted = false;
    t.listener.apply();
    expect(t.mic.starts).toHaveLength(2);
  });

  it('says when a source that delivered audio has sent none for 5 s, and listening again once it comes back', () => {
    const services = new Map<string, ServiceState>();
    const t = build({ services });
    t.listener.apply();
    const chunk = synth([{ silence: 100 }]);
    t.mic.last().pcm(chunk);
    expect(t.listener.status()).toMatchObject({ state: 'listening', detail: 'listening on scripted mic' });
    // Audio that keeps coming, even silence, is listening.
    for (let i = 0; i < 10; i += 1) {
      t.clock.advance(1000);
      t.mic.last().pcm(chunk);
    }
    expect(t.listener.status().state).toBe('listening');
    t.clock.advance(4999);
    expect(t.listener.status().state).toBe('listening');
    t.clock.advance(1);
    expect(t.listener.status()).toMatchObject({
      state: 'no_audio',
      detail: 'no audio from scripted mic in the last 5 s',
    });
    expect(services.get('voice')).toEqual({
      state: 'running',
      detail: 'voice: no audio from scripted mic in the last 5 s',
    });
    t.clock.advance(60_000);
    expect(t.listener.status().detail).toBe('no audio from scripted mic in the last 5 s');
    t.mic.last().pcm(chunk);
    expect(t.listener.status()).toMatchObject({ state: 'listening', detail: 'listening on scripted mic' });
    // No row for each gap: the agent log says once that it listens.
    expect(t.rows.filter((r) => r.text.startsWith('Listening on'))).toHaveLength(1);
    // A stopped source leaves no timer behind.
    t.settings.muted = true;
    t.listener.apply();
    expect(t.clock.pending()).toBe(0);
    expect(t.listener.status().state).toBe('muted');
  });

  it('says when a source that opened has sent no audio for 5 s, and listening once its first audio comes', () => {
    const t = build();
    t.listener.apply();
    t.clock.advance(4999);
    expect(t.listener.status()).toMatchObject({ state: 'starting', detail: 'opening scripted mic' });
    t.clock.advance(1);
    expect(t.listener.status()).toMatchObject({
      state: 'no_audio',
      detail: 'no audio from scripted mic in the last 5 s',
    });
    t.mic.last().pcm(synth([{ silence: 100 }]));
    expect(t.listener.status()).toMatchObject({ state: 'listening', detail: 'listening on scripted mic' });
    expect(t.rows.filter((r) => r.text.startsWith('Listening on'))).toHaveLength(1);
    t.settings.muted = true;
    t.listener.apply();
    expect(t.clock.pending()).toBe(0);
  });

  it("speaks a model's answer with control characters as the say route takes text, without them", async () => {
    const spoken: string[] = [];
    const t = build({
      runtime: {
        start: () => ({
          rowId: 1,
          done: Promise.resolve({
            ok: true,
            text: 'Hello\u0000 there,\u001b[31m friend.\u0007\nBye\tnow.',
            seconds: 0,
          }),
        }),
      },
      // The say route's own check (server/motion/control-input.ts): a NUL would also break espeak-ng's argv.
      say: async (text) => (spoken.push(parseSay({ text }).text), { seconds: 1 }),
    });
    t.listener.apply();
    t.mic.last().pcm(utterance());
    await tick();
    expect(spoken).toEqual(['Hello  there, [31m friend. \nBye\tnow.']);
    expect(t.listener.status().lastError).toBeNull();
  });

  it('speaks nothing for an answer made only of control characters', async () => {
    const t = build({
      runtime: { start: () => ({ rowId: 1, done: Promise.resolve({ ok: true, text: '\u0000\u0007', seconds: 0 }) }) },
    });
    t.listener.apply();
    t.mic.last().pcm(utterance());
    await tick();
    expect(t.spoken).toEqual([]);
    expect(t.listener.status()).toMatchObject({ state: 'listening', lastError: null });
  });

  it('shows a transcription failure in the agent log and keeps listening', async () => {
    const t = build({
      makeTranscriber: () => ({
        transcribe: () => Promise.reject(new Error('transcription failed: HTTP 401 Incorrect API key provided.')),
      }),
    });
    t.listener.apply();
    t.mic.last().pcm(utterance());
    await t.listener.settled();
    expect(t.rows.at(-1)).toEqual({
      role: 'assistant',
      persona: 'voice',
      text: 'Voice: could not transcribe: transcription failed: HTTP 401 Incorrect API key provided.',
      error: true,
    });
    expect(t.listener.status()).toMatchObject({
      state: 'listening',
      lastError: { text: expect.stringMatching(/401/) },
    });
    expect(t.prompts).toEqual([]);
  });

  it('never touches the daemon when its microphone cannot be opened', async () => {
    const sim = await startSimDaemon();
    try {
      const before = sim.counters();
      const t = build(
        { makeSource: (setting) => createAudioSource(setting, { log: silentLog }) },
        { source: 'alsa:no-such-card' },
      );
      t.listener.apply();
      await eventually(() => t.listener.status().state === 'failed', { what: 'the listener to fail' });
      expect(t.listener.status().lastError?.text).toMatch(/^ffmpeg ended/);
      t.clock.advance(5000);
      await eventually(() => t.listener.status().failures === 2, { what: 'the second failure' });
      await t.listener.close();
      const after = sim.counters();
      expect(after).toMatchObject({ mediaReleases: 0, mediaAcquires: 0, httpRequests: before.httpRequests });
    } finally {
      await sim.close();
    }
  });

  it('fails with the reason, retries with the backoff and never touches the daemon when `daemon` has no WebRTC camera', async () => {
    const sim = await startSimDaemon();
    try {
      const before = sim.counters();
      // A local webcam as the camera: it has no robot microphone.
      const camera = createFrameHub({
        source: createDeviceSource({ device: '/dev/video9', platform: 'linux' }, silentLog),
        log: silentLog,
      });
      const t = build(
        { makeSource: (setting) => createAudioSource(setting, { log: silentLog, microphone: camera }) },
        { source: 'daemon' },
      );
      t.listener.apply();
      await eventually(() => t.listener.status().state === 'failed', {
        what: 't.listener.status().state to be failed',
      });
      expect(t.listener.status().lastError?.text).toMatch(
        /^no daemon microphone: the camera source \(device .*\) has no robot microphone/,
      );
      expect(t.listener.status().detail).toMatch(/retrying in 5 s$/);
      t.clock.advance(5000);
      await eventually(() => t.listener.status().failures === 2, { what: 't.listener.status().failures to be 2' });
      expect(t.listener.status().detail).toMatch(/retrying in 10 s$/);
      await t.listener.close();
      expect(camera.stats().starts).toBe(0);
      expect(sim.counters()).toMatchObject({
        mediaReleases: 0,
        mediaAcquires: 0,
        httpRequests: before.httpRequests,
        cameraSessionsTotal: before.cameraSessionsTotal,
      });
    } finally {
      await sim.close();
    }
  });
});
