/** Sounds, media devices, face tracking and DoA (docs/daemon.md, "State"). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWav } from './audio-file.ts';
import { startSimDaemon, type SimDaemon } from './index.ts';
import { createManualClock, type ManualClock } from '../testing/manual-clock.ts';
import { api, ok, waitFor } from './test-helpers.ts';

let sim: SimDaemon;
beforeEach(async () => {
  sim = await startSimDaemon();
});
afterEach(() => sim.close());

async function upload(name: string, data: Buffer, field = 'file'): Promise<{ status: number; json: unknown }> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${sim.url}/api/media/sounds/upload`, { method: 'POST', body: form });
  return { status: res.status, json: await res.json() };
}

describe('uploaded sounds', () => {
  it("computes an uploaded WAV's real duration and logs what played", async () => {
    const up = await upload('beep.wav', makeWav(1.25, 16000, 2));
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({
      status: 'ok',
      path: expect.stringMatching(/reachy_mini_sounds[/\\]beep\.wav$/) as unknown,
    });
    expect(await ok(sim, 'GET', '/api/media/sounds')).toEqual({ files: ['beep.wav'] });
    const before = Date.now();
    expect(await ok(sim, 'POST', '/api/media/play_sound', { file: 'beep.wav' })).toEqual({ status: 'ok' });
    const played = sim.counters().soundsPlayed.at(-1);
    expect(played?.file).toBe('beep.wav');
    expect(played?.seconds).toBeCloseTo(1.25, 9);
    expect(played?.startedAt).toBeGreaterThanOrEqual(before);
    await ok(sim, 'POST', '/api/media/play_sound', { file: (up.json as { path: string }).path });
    await ok(sim, 'POST', '/api/media/play_sound', { file: 'confused1.wav' });
    await ok(sim, 'POST', '/api/media/play_sound', { file: 'no-such-sound.wav' });
    expect(sim.counters().soundsPlayed.map((s) => [s.file, s.seconds])).toEqual([
      ['beep.wav', 1.25],
      ['beep.wav', 1.25],
      ['confused1.wav', 5.708],
    ]);
    await ok(sim, 'POST', '/api/media/stop_sound');
    expect(sim.counters().soundsPlayed.at(-1)?.stoppedAt).toBeTypeOf('number');
    expect(sim.counters().soundStops).toBe(1);
    expect(await ok(sim, 'DELETE', '/api/media/sounds/beep.wav')).toEqual({ status: 'ok' });
    expect(await api(sim, 'DELETE', '/api/media/sounds/beep.wav')).toMatchObject({
      status: 404,
      json: { detail: "File 'beep.wav' not found" },
    });
  });

  it('refuses bad names, bad content, missing files and bodies over 25 MiB', async () => {
    expect(await upload('notes.txt', Buffer.from('hello'))).toEqual({
      status: 400,
      json: { detail: 'Unsupported file extension; allowed: .aac, .flac, .m4a, .mp3, .oga, .ogg, .opus, .wav' },
    });
    expect(await upload('fake.wav', Buffer.from('not a wav at all'))).toEqual({
      status: 400,
      json: { detail: 'Unsupported or invalid audio file' },
    });
    expect(await upload('beep.wav', makeWav(0.1), 'other')).toEqual({
      status: 422,
      json: { detail: [{ type: 'missing', loc: ['body', 'file'], msg: 'Field required', input: null }] },
    });
    expect(await upload('huge.wav', makeWav(900, 16000))).toEqual({
      status: 413,
      json: { detail: 'Request body too large; maximum is 26214400 bytes' },
    });
    const traversal = await upload('../../tmp/evil.wav', makeWav(0.1));
    expect(traversal.json).toMatchObject({
      path: expect.stringMatching(/reachy_mini_sounds[/\\]evil\.wav$/) as unknown,
    });
  });

  it('does not play while the media devices are released, and counts releases and acquires', async () => {
    await ok(sim, 'POST', '/api/media/release');
    expect(await ok(sim, 'GET', '/api/media/status')).toEqual({ available: false, released: true, no_media: false });
    expect((await ok(sim, 'GET', '/api/daemon/status')).media_released).toBe(true);
    await ok(sim, 'POST', '/api/media/play_sound', { file: 'count.wav' });
    expect(sim.counters().soundsPlayed).toEqual([]);
    await ok(sim, 'POST', '/api/media/acquire');
    await ok(sim, 'POST', '/api/media/play_sound', { file: 'count.wav' });
    expect(sim.counters()).toMatchObject({ mediaReleases: 1, mediaAcquires: 1 });
    expect(sim.counters().soundsPlayed).toHaveLength(1);
    expect(await ok(sim, 'POST', '/api/media/wobbling/enable')).toEqual({ status: 'ok' });
  });
});

describe('face tracking', () => {
  // The control loop on a manual clock: the head moves exactly as far as the test moves time.
  let clock: ManualClock;
  let still: SimDaemon;
  beforeEach(async () => {
    clock = createManualClock();
    still = await startSimDaemon({ clock });
  });
  afterEach(() => still.close());
  const face = async () =>
    (await ok<{ face_target: { detected: boolean; x: number | null } }>(still, 'GET', '/api/media/tracking/face'))
      .face_target;
  const yaw = async () => (await ok<{ yaw: number }>(still, 'GET', '/api/state/present_head_pose')).yaw;

  it('reports the face relative to the head and turns the head toward it at weight 1', async () => {
    expect(await ok(still, 'POST', '/api/media/tracking/enable', { weight: 1 })).toEqual({ status: 'ok', enabled: true });
    clock.advance(60);
    const none = await ok<{ face_target: Record<string, unknown> }>(still, 'GET', '/api/media/tracking/face');
    expect(none).toMatchObject({ status: 'ok', face_target: { detected: false, x: null, y: null, roll: null } });
    await ok(still, 'POST', '/sim/face', { yaw: 20, pitch: 5 });
    // Three seconds of ticks: the head has long settled on the face.
    clock.advance(3000);
    expect((await face()).detected).toBe(true);
    expect(Math.abs((await yaw()) - (20 * Math.PI) / 180)).toBeLessThan(0.01);
    expect(Math.abs((await face()).x ?? Infinity)).toBeLessThan(0.05);
    expect(
      (await ok<{ face_target: { detected: boolean } }>(still, 'GET', '/api/daemon/status')).face_target.detected,
    ).toBe(true);
    // At full weight the aim overrides the commanded pose: set_target says ok, the head stays on the face.
    expect(await ok(still, 'POST', '/api/move/set_target', { target_head_pose: { yaw: -0.5 } })).toEqual({
      status: 'ok',
    });
    clock.advance(150);
    expect(await yaw()).toBeGreaterThan(0.3);
    expect(await ok(still, 'POST', '/api/media/tracking/disable')).toEqual({ status: 'ok', enabled: false });
    clock.advance(3000);
    expect(await yaw()).toBeLessThan(-0.4);
  });

  it('marks a face outside the field of view as not detected and validates the weight', async () => {
    await ok(still, 'POST', '/sim/face', { yaw: 90, pitch: 0 });
    await ok(still, 'POST', '/api/media/tracking/enable', { weight: 0.5 });
    clock.advance(80);
    expect(
      (await ok<{ face_target: { detected: boolean; ts: unknown } }>(still, 'GET', '/api/media/tracking/face'))
        .face_target,
    ).toMatchObject({ detected: false, x: null });
    // The barrier: the same tracker, the face brought into view, is seen on the next ticks.
    await ok(still, 'POST', '/sim/face', { yaw: 10, pitch: 0 });
    clock.advance(80);
    expect((await face()).detected).toBe(true);
    const bad = await api(still, 'POST', '/api/media/tracking/enable', { weight: 2 });
    expect(bad).toMatchObject({
      status: 422,
      json: { detail: [{ type: 'less_than_equal', loc: ['body', 'weight'] }] },
    });
  });
});

describe('direction of arrival', () => {
  it('is null on the first read, then follows the /sim speaker with a few degrees of noise', async () => {
    await ok(sim, 'POST', '/sim/speaker', { bearing: 30, speaking: true });
    expect(await ok(sim, 'GET', '/api/state/doa')).toBeNull();
    const doa = await waitFor(async () => {
      const read = await ok<{ angle: number; speech_detected: boolean } | null>(sim, 'GET', '/api/state/doa');
      return read?.speech_detected ? read : undefined;
    });
    expect(Math.abs(doa.angle - (60 * Math.PI) / 180)).toBeLessThan((10 * Math.PI) / 180);
    const full = await ok<{ doa: { angle: number } | null }>(sim, 'GET', '/api/state/full?with_doa=true');
    expect(full.doa?.angle).toBeTypeOf('number');
  });
});
