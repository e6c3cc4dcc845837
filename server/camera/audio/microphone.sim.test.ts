/**
 * The robot's microphone through the camera's one WebRTC session, against the simulator (which
 * offers Opus in every session, as webrtcsink does): audio is answered `inactive` until someone
 * listens, then the one session is replaced by one that takes the microphone, what the
 * simulated robot hears arrives as PCM16 mono 16 kHz, and the camera keeps its pictures.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { startSimDaemon, type SimDaemon } from '../../sim/index.ts';
import { ok, waitFor } from '../../sim/test-helpers.ts';
import { createFrameHub, type FrameHub } from '../frame-hub.ts';
import { createDeviceSource } from '../sources/device-source.ts';
import { createWebrtcSource } from '../sources/webrtc-source.ts';

let sim: SimDaemon;
const cleanup: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  sim = await startSimDaemon();
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(() => sim.close());

function daemonHub(): FrameHub {
  const source = createWebrtcSource({ url: sim.cameraSignallingUrl, log: silentLog, microphoneLingerMs: 200 });
  const hub = createFrameHub({ source, log: silentLog, idleStopMs: null });
  hub.start();
  cleanup.push(() => hub.stop());
  return hub;
}

/** Root mean square of PCM16 LE samples, full scale 1. */
function rms(pcm: Buffer): number {
  let sum = 0;
  const n = Math.floor(pcm.length / 2);
  for (let i = 0; i < n; i += 1) sum += (pcm.readInt16LE(i * 2) / 32768) ** 2;
  return Math.sqrt(sum / Math.max(1, n));
}

describe('the daemon microphone through the camera session', () => {
  it('is answered inactive until someone listens, then carries what the robot hears', async () => {
    const hub = daemonHub();
    await waitFor(() => hub.health().status === 'live', 10_000);
    expect(sim.counters()).toMatchObject({ cameraSessions: 1, cameraAudioSessions: 0 });
    const frameTimes: number[] = [];
    const viewer = hub.subscribe('h264', () => void frameTimes.push(Date.now()));
    cleanup.push(() => viewer.close());
    await waitFor(() => frameTimes.length >= 3, 5000);
    expect(hub.microphoneName).toBe(`daemon microphone (webrtc ${sim.cameraSignallingUrl})`);

    const chunks: { at: number; pcm: Buffer }[] = [];
    const ends: string[] = [];
    let maxOpen = 0;
    const watch = setInterval(() => (maxOpen = Math.max(maxOpen, sim.counters().cameraSessions)), 5);
    cleanup.push(() => clearInterval(watch));
    const listening = hub.listenMicrophone({
      pcm: (pcm) => chunks.push({ at: Date.now(), pcm }),
      end: (r) => ends.push(r),
    });
    if (!listening.ok) throw new Error(listening.error);
    await waitFor(() => chunks.length > 10, 10_000);
    // One session open, now with the microphone: it replaced the first. (A loaded machine may
    // see the source renegotiate once more on its own; never two sessions at once, checked below.)
    expect(sim.counters()).toMatchObject({ cameraSessions: 1, cameraAudioSessions: 1 });
    expect(sim.counters().cameraSessionsTotal).toBeGreaterThanOrEqual(2);

    // A quiet room: soft noise, well under speech.
    const quiet = rms(Buffer.concat(chunks.map((c) => c.pcm)));
    expect(quiet).toBeGreaterThan(0);
    expect(quiet).toBeLessThan(0.01);

    const saidAt = Date.now();
    await ok(sim, 'POST', '/sim/microphone', { text: 'Hello robot, can you hear me?' });
    const loud = (): { at: number; pcm: Buffer } | undefined => chunks.find((c) => c.at >= saidAt && rms(c.pcm) > 0.03);
    await waitFor(() => loud() !== undefined, 10_000);
    const heard = Buffer.concat(chunks.filter((c) => c.at >= saidAt).map((c) => c.pcm));
    expect(rms(heard)).toBeGreaterThan(quiet * 5);

    // The session was replaced inside the source, and the pictures came back: new frames arrive.
    const framesBefore = frameTimes.length;
    await waitFor(() => hub.health().status === 'live' && frameTimes.length >= framesBefore + 3);
    // The camera's pause while the session is replaced (a new negotiation).
    const gap = Math.max(...frameTimes.slice(1).map((t, i) => t - frameTimes[i]!));

    listening.subscription.close();
    await waitFor(() => sim.counters().cameraAudioSessions === 0 && sim.counters().cameraSessions === 1, 10_000);
    await waitFor(() => hub.health().status === 'live', 5000);
    expect(maxOpen).toBe(1);
    expect(sim.counters()).toMatchObject({ mediaReleases: 0, mediaAcquires: 0 });
    expect(ends).toEqual([]);
    // For the README: how soon the robot's words reached the listener.
    console.log(`microphone: first loud chunk ${loud()!.at - saidAt} ms after /sim/microphone; camera gap ${gap} ms`);
  });

  it('ends its listeners when the camera stops', async () => {
    const hub = daemonHub();
    const ends: string[] = [];
    const listening = hub.listenMicrophone({ pcm: () => {}, end: (r) => ends.push(r) });
    expect(listening.ok).toBe(true);
    await hub.stop();
    expect(ends).toEqual(['the camera stopped']);
  });

  it('is not there for a local device camera or no camera, and says why', () => {
    const device = createFrameHub({
      source: createDeviceSource({ device: '/dev/video9', platform: 'linux' }, silentLog),
      log: silentLog,
    });
    expect(device.microphoneName).toBeNull();
    expect(device.listenMicrophone({ pcm: () => {}, end: () => {} })).toEqual({
      ok: false,
      error: expect.stringMatching(/camera source \(.*\) has no robot microphone/),
    });
    const none = createFrameHub({ source: null, log: silentLog });
    expect(none.listenMicrophone({ pcm: () => {}, end: () => {} })).toMatchObject({ ok: false });
  });
});
