/**
 * Self-test checks of the camera (frames arriving, resolution, fps) and the microphone (its level
 * over 3 s of audio, with a meter). A microphone delivering only zeros is the known Linux/USB
 * fault of the robot's audio board, and is flagged as such.
 */
import type { CameraSetting } from '../camera/camera-setting.ts';
import type { FrameHub } from '../camera/index.ts';
import type { CameraFrame } from '../camera/frame.ts';
import type { Check, Finding } from './run-checks.ts';

/** The cockpit receives the microphone as PCM16 mono 16 kHz (server/camera/audio/microphone-tap.ts). */
const MIC_RATE = 16_000;
export const MIC_SECONDS = 3;
/** Meter resolution: one level per 100 ms. */
const METER_SAMPLES = MIC_RATE / 10;
/** Below this the room is quieter than any real room at the robot: a dead capture, not silence. */
const DEAD_DBFS = -90;
const QUIET_DBFS = -75;

const dbfs = (level: number) => (level <= 0 ? -120 : Math.max(-120, Math.round(20 * Math.log10(level) * 10) / 10));

export interface MicLevels {
  peak: number;
  rms: number;
  /** The median of the meter: the level most of the time, which a click or a trailing bit of sound does not move. */
  floor: number;
  /** RMS per 100 ms, full scale 1: the meter. */
  meter: number[];
  zeros: boolean;
}

/** Measures PCM16 LE samples (full scale 1). */
export function measure(samples: Int16Array): MicLevels {
  let peak = 0;
  let sum = 0;
  const meter: number[] = [];
  let blockSum = 0;
  for (let i = 0; i < samples.length; i += 1) {
    const v = (samples[i] ?? 0) / 32768;
    peak = Math.max(peak, Math.abs(v));
    sum += v * v;
    blockSum += v * v;
    if ((i + 1) % METER_SAMPLES === 0) {
      meter.push(Math.round(Math.sqrt(blockSum / METER_SAMPLES) * 1e5) / 1e5);
      blockSum = 0;
    }
  }
  const rms = Math.sqrt(sum / Math.max(1, samples.length));
  const sorted = [...meter].sort((a, b) => a - b);
  const floor = sorted.length ? (sorted[Math.floor(sorted.length / 2)] ?? 0) : rms;
  return { peak, rms, floor, meter, zeros: samples.every((s) => s === 0) };
}

export function judgeMicrophone(levels: MicLevels): Finding {
  const values = {
    peakDbfs: dbfs(levels.peak),
    rmsDbfs: dbfs(levels.rms),
    floorDbfs: dbfs(levels.floor),
    meter: levels.meter,
    allZeros: levels.zeros,
  };
  // The median level, not the peak or the mean: a decoder's click, or sound still in the pipeline
  // when the capture died, must not hide a microphone that records nothing.
  if (levels.zeros || dbfs(levels.floor) <= DEAD_DBFS)
    return {
      outcome: 'fail',
      detail: `The microphone recorded ${levels.zeros ? 'only zeros' : 'digital silence'} for ${MIC_SECONDS} s: not even room noise.`,
      advice:
        "This is the known Linux/USB audio fault: unplug the robot's USB cable and plug it back in (on the Wireless robot, restart it), then check again. Another program holding the audio device can do this too.",
      values,
    };
  if (dbfs(levels.floor) < QUIET_DBFS)
    return {
      outcome: 'warn',
      detail: `The microphone level is very low (${values.floorDbfs} dBFS most of the ${MIC_SECONDS} s).`,
      advice: "Check the microphone gain on the dashboard, and that nothing covers the robot's head.",
      values,
    };
  return {
    outcome: 'ok',
    detail: `The microphone hears the room (${values.rmsDbfs} dBFS, peak ${values.peakDbfs} dBFS).`,
    values,
  };
}

type Camera = Pick<FrameHub, 'configured' | 'snapshot' | 'health' | 'listenMicrophone'>;

/** Collects `seconds` of audio by sample count, so a busy machine only makes it slower, never shorter. */
function listen(camera: Camera, seconds: number, maxMs: number): Promise<Int16Array> {
  return new Promise((resolve, reject) => {
    const want = MIC_RATE * seconds * 2;
    const chunks: Buffer[] = [];
    let have = 0;
    let finished = false;
    const finish = (outcome: () => void) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (listened.ok) listened.subscription.close();
      outcome();
    };
    // The check's own bound: never leave the microphone open behind a check that gave up.
    const timer = setTimeout(
      () => finish(() => reject(new Error(`only ${(have / 2 / MIC_RATE).toFixed(1)} s of audio arrived`))),
      maxMs,
    );
    const listened = camera.listenMicrophone({
      pcm(chunk) {
        chunks.push(chunk);
        have += chunk.length;
        if (have < want) return;
        const all = Buffer.concat(chunks).subarray(0, want);
        finish(() => resolve(new Int16Array(all.buffer.slice(all.byteOffset, all.byteOffset + all.length))));
      },
      end: (reason) => finish(() => reject(new Error(`the microphone stopped: ${reason}`))),
    });
    if (!listened.ok) finish(() => reject(new Error(listened.error)));
  });
}

/** A frame taken after the check began: a frame from just before a camera died proves nothing. */
async function freshFrame(camera: Camera, maxMs: number): Promise<CameraFrame | undefined> {
  const since = Date.now();
  while (Date.now() - since < maxMs) {
    const frame = await camera.snapshot(Math.max(1, maxMs - (Date.now() - since)));
    if (!frame) return undefined;
    if (frame.capturedAt >= since) return frame;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

/** The camera check's verdict on the frame it waited for (none: the camera is gone) and the hub's rate. */
export function judgeCamera(
  frame: { width: number; height: number } | undefined,
  health: { status: string; fps: number; trouble?: string },
): Finding {
  if (!frame)
    return {
      outcome: 'fail',
      detail: `No camera frame arrived (camera ${health.status}${health.trouble ? `: ${health.trouble}` : ''}).`,
      advice:
        "Camera not found: check that no other program uses it, that the daemon's media is not released, then restart the daemon.",
    };
  const values = { width: frame.width, height: frame.height, fps: health.fps };
  if (health.fps > 0 && health.fps < 5)
    return {
      outcome: 'warn',
      detail: `Frames arrive at only ${health.fps} fps (${frame.width}×${frame.height}).`,
      advice: 'The network or the robot is overloaded: close other viewers.',
      values,
    };
  return { outcome: 'ok', detail: `Frames arrive: ${frame.width}×${frame.height} at ${health.fps} fps.`, values };
}

/**
 * `source` is the kind of ROBOT_CAMERA (server/camera/camera-setting.ts). A synthetic test card is
 * no camera to check, and only the daemon's camera carries the robot's microphone: without these
 * the test card passed as the robot's camera, and the missing microphone failed as a fault with
 * advice to check the daemon.
 */
export function mediaChecks(
  camera: Camera,
  micSeconds = MIC_SECONDS,
  source: CameraSetting['kind'] = 'daemon',
): Check[] {
  return [
    {
      id: 'camera',
      title: 'Camera frames',
      // A first snapshot may have to start the camera's JPEG decoding.
      timeoutMs: 12_000,
      async run() {
        if (!camera.configured)
          return {
            outcome: 'skipped',
            detail: 'No camera is configured for this cockpit.',
            advice: "Set ROBOT_CAMERA to use the robot's camera.",
          };
        if (source === 'synthetic')
          return {
            outcome: 'skipped',
            detail: "The camera is a synthetic test card (ROBOT_CAMERA=synthetic), not the robot's.",
            advice: "Set ROBOT_CAMERA=daemon to check the robot's camera.",
          };
        return judgeCamera(await freshFrame(camera, 9000), camera.health());
      },
    },
    {
      id: 'microphone',
      title: 'Microphone level',
      // Listening may first renegotiate the camera session to take the audio (a few seconds on a busy robot).
      timeoutMs: 20_000,
      async run() {
        if (!camera.configured)
          return { outcome: 'skipped', detail: "No camera is configured, and the robot's microphone comes with it." };
        if (source !== 'daemon')
          return {
            outcome: 'skipped',
            detail: `The robot's microphone comes only with the daemon's camera, and this cockpit's camera is ${source === 'synthetic' ? 'a synthetic test card' : 'a local capture device'}.`,
            advice: "Set ROBOT_CAMERA=daemon to check the robot's microphone.",
          };
        return judgeMicrophone(measure(await listen(camera, micSeconds, 18_000)));
      },
    },
  ];
}
