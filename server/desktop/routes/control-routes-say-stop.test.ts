/** The control routes over a simulated daemon: speech, and the latched stop. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { until } from '../../motion/testing/rig.ts';
import { SPEAKING_TAIL_MS } from '../../speech/speaker.ts';
import {
  control,
  controlClock,
  holds,
  lastEvent,
  post,
  robot,
  sim,
  simRunning,
  spy,
  useControlRoutesRig,
} from './testing/control-routes-rig.ts';

useControlRoutesRig();

/** The clip's length from samples decoded by ffmpeg, independently of the cockpit's WAV reader. */
function decodedSeconds(text: string): number {
  const wav = execFileSync('espeak-ng', ['--stdout', '--', text]);
  const pcm = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'],
    { input: wav, maxBuffer: 64 * 1024 * 1024 },
  );
  return pcm.length / 2 / 16000;
}

describe('control routes: say', () => {
  it('speaks through the daemon with a wobble and answers the real length of the audio', async () => {
    const text = 'Hello! I am the cockpit robot, and this is my voice.';
    const wobbles = () => spy.calls.filter((c) => c === 'setWobbling').length;
    const before = wobbles();
    const res = await post('/api/control/say', { text });
    expect(res.status).toBe(200);
    expect(res.json.engine).toBe('espeak-ng');
    const seconds = res.json.seconds as number;
    const real = decodedSeconds(text);
    expect(Math.abs(seconds - real) / real).toBeLessThan(0.05);
    const played = sim.counters().soundsPlayed.at(-1);
    expect(played?.file).toMatch(/^cockpit-say-[ab]\.wav$/);
    expect(Math.abs((played?.seconds ?? 0) - seconds) / seconds).toBeLessThan(0.05);
    expect(wobbles() - before).toBe(1);
    expect(holds.live()).toContain('speaking');
    // The clip ends on the control's clock: just before its length it still plays.
    controlClock.advance(seconds * 1000 - 1);
    expect(holds.live()).toContain('speaking');
    controlClock.advance(1);
    await until(() => wobbles() - before === 2); // wobble off after the clip
    // The hold stays 0.8 s more for the last syllable (server/speech/speaker.ts), then goes.
    controlClock.advance(SPEAKING_TAIL_MS - 1);
    expect(holds.live()).toContain('speaking');
    controlClock.advance(1);
    expect(holds.live()).not.toContain('speaking');
    expect(lastEvent('say')).toMatchObject({
      text: `say "${text}" (${seconds.toFixed(1)} s)`,
      values: { engine: 'espeak-ng', seconds },
    });
  });
});

describe('control routes: the latched stop', () => {
  // How fast a stop lands is a latency, measured in bench/ (docs/testing.md); here, what it leaves behind.
  it('has emptied the daemon running moves by the time it answers, latches, and resumes', async () => {
    await post('/api/control/express', { name: 'laughing1' });
    await post('/api/control/reel', { action: 'start' });
    await until(async () => (await simRunning()).length > 0, 3000);
    const stop = await post('/api/control/stop');
    expect(await simRunning()).toEqual([]);
    expect(stop.json).toMatchObject({ latched: true, reelAborted: true, daemon: { ok: true } });
    expect(robot.state()?.services['stop']).toMatchObject({ state: 'running' });
    for (const [path, body] of [
      ['/api/control/look', { yaw: 5 }],
      ['/api/control/express', { name: 'yes1' }],
      ['/api/control/wake', undefined],
      ['/api/control/reel', { action: 'start' }],
      ['/api/control/say', { text: 'hi' }],
    ] as const) {
      expect(await post(path, body)).toMatchObject({
        status: 409,
        json: { code: 'STOP_LATCHED', error: 'stopped: resume from the dashboard first' },
      });
    }
    expect(control.streamTarget({ yaw: 3 }, { kind: 'token' })).toMatchObject({
      accepted: false,
      code: 'STOP_LATCHED',
    });
    expect((await post('/api/control/motors', { mode: 'enabled' })).status).toBe(200);
    expect(await post('/api/console/resume')).toMatchObject({
      status: 200,
      json: { latched: false, wasLatched: true },
    });
    expect(robot.services.get('stop')?.state).toBe('off');
    expect((await post('/api/control/look', { yaw: 5, duration: 0.3 })).status).toBe(200);
    expect(lastEvent('stop')?.text).toMatch(/move\(s\) cancelled/);
  });

  it('a stop with the daemon down still latches and says the daemon part failed', async () => {
    await fetch(`${sim.url}/sim/backend`, {
      method: 'POST',
      body: JSON.stringify({ action: 'stop' }),
      headers: { 'content-type': 'application/json' },
    });
    await until(async () => (await fetch(`${sim.url}/api/motors/status`)).status === 503, 5000);
    const look = await post('/api/control/look', { yaw: 10 });
    expect(look).toMatchObject({ status: 503, json: { code: 'DAEMON_STOPPED' } });
    // A joystick frame is refused the same way once the feed has seen it, not sent into the void.
    await until(() => 'daemon:stopped' in robot.health().problems, 5000);
    expect(control.streamTarget({ yaw: 3 }, { kind: 'token' })).toMatchObject({
      accepted: false,
      code: 'DAEMON_STOPPED',
    });
    expect(control.arbiter.current()).toBeUndefined();
    const stop = await post('/api/control/stop');
    expect(stop.status).toBe(200);
    expect(stop.json).toMatchObject({ latched: true, daemon: { ok: false } });
    expect(control.latch.engaged()).toBe(true);
    expect(lastEvent('stop')?.text).toMatch(/^stop latched, but the daemon part failed/);
    // The daemon refused stop_sound too: the receipt does not claim the speaker went quiet.
    expect(stop.json.stopped).toContain('speech NOT confirmed silenced');
    await fetch(`${sim.url}/sim/backend`, {
      method: 'POST',
      body: JSON.stringify({ action: 'start' }),
      headers: { 'content-type': 'application/json' },
    });
    await until(async () => (await fetch(`${sim.url}/api/motors/status`)).status === 200, 5000);
  });
});
