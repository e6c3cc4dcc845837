/**
 * Self-test checks that ask the daemon: reachable and of a tested version, motors answering with
 * no error, DoA answering, the speaker playing a short sound.
 */
import { compareReleases, releaseOf } from '../daemon/capabilities.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import { daemonPhysics } from '../daemon/robot-state.ts';
import { TESTED_RANGE } from '../real-daemon/pin.ts';
import type { Check, Finding } from './run-checks.ts';

/** Within the tested range of server/real-daemon/pin.ts, compared as server/daemon/capabilities.ts does. */
export function versionTested(version: string): boolean {
  const release = releaseOf(version);
  const min = releaseOf(TESTED_RANGE.min) as [number, number, number];
  const max = releaseOf(TESTED_RANGE.max) as [number, number, number];
  return release !== null && compareReleases(release, min) >= 0 && compareReleases(release, max) <= 0;
}

const TESTED_TEXT = `${TESTED_RANGE.min} to ${TESTED_RANGE.max}`;

const PHYSICS = { mujoco: 'MuJoCo physics', mockup: 'a mockup, no physics' } as const;

type Daemon = Pick<DaemonClient, 'status' | 'motorMode' | 'doa' | 'volume' | 'playSound'>;

/** A built-in sound of the daemon, short, the one its own volume test plays. */
export const TEST_SOUND = 'impatient1.wav';

/**
 * A daemon started without media (`no_media`: `--no-media`, or no sound card) has no speaker or
 * audio board to test: the check says so instead of failing with advice to restart the daemon.
 */
const NO_MEDIA = (what: string): Finding => ({
  outcome: 'skipped',
  detail: `The daemon runs without media (no sound card or audio board), so there is no ${what} to test.`,
  advice: 'Start the daemon with its media (on the robot, its normal service) to test it.',
});

const SILENT: Finding = {
  outcome: 'skipped',
  detail: 'Not run: the STOP is latched, and the robot stays silent until the resume.',
  advice: 'Resume, then check again.',
};

/** The STOP as the speaker check reads it (server/motion/stop-latch.ts). */
export interface StopReading {
  /** The STOP holds now. */
  engaged(): boolean;
  /** How many times the STOP was engaged since start. */
  engagements(): number;
}

const STOPPED_DURING: Finding = {
  outcome: 'skipped',
  detail: 'Not run: a STOP came during the check, so no test sound was played.',
  advice: 'Check again.',
};

const NEVER_STOPPED: StopReading = { engaged: () => false, engagements: () => 0 };

/**
 * `stop` says whether the STOP holds: the STOP silences the robot and Control refuses to speak
 * until the resume (server/motion/control.ts), so the speaker check plays nothing then, nor after
 * a STOP that came during the check, even one resumed before its sound would have gone out.
 */
export function daemonChecks(daemon: Daemon, stop: StopReading = NEVER_STOPPED): Check[] {
  return [
    {
      id: 'daemon',
      title: 'Daemon reachable, version tested',
      timeoutMs: 4000,
      async run() {
        const status = await daemon.status();
        const values = { version: status.version, state: status.state, tested: TESTED_TEXT };
        if (status.state !== 'running')
          return {
            outcome: 'fail',
            detail: `The daemon answers but its backend is ${status.state}${status.error ? `: ${status.error}` : ''}.`,
            advice: 'Check the USB cable and power, then restart the daemon (or the robot).',
            values,
          };
        // A daemon that simulates the robot (MuJoCo, or a mockup) answers the checks as a healthy
        // robot would: passing them says nothing about a robot, so the run must not read as one
        // that passed.
        const physics = daemonPhysics(status);
        if (physics)
          return {
            outcome: 'warn',
            detail: `Daemon ${status.version} answers, but it simulates the robot (${PHYSICS[physics]}): these checks test the simulation, not a robot.${versionTested(status.version) ? '' : ` Its version is outside the tested ${TESTED_TEXT}.`}`,
            advice: "To check the robot itself, point the cockpit at the robot's daemon (ROBOT_DAEMON_URL).",
            values: { ...values, physics },
          };
        if (!versionTested(status.version))
          return {
            outcome: 'warn',
            detail: `Daemon ${status.version} answers, but this cockpit is tested with ${TESTED_TEXT}.`,
            advice: 'Update the robot (or the cockpit) to a tested pair; things may misbehave until then.',
            values,
          };
        return { outcome: 'ok', detail: `Daemon ${status.version} answers and its backend runs.`, values };
      },
    },
    {
      id: 'motors',
      title: 'Motors answer, no error',
      timeoutMs: 4000,
      async run() {
        const [mode, status] = await Promise.all([daemon.motorMode(), daemon.status()]);
        const error = status.backend_status?.error ?? null;
        if (error)
          return {
            outcome: 'fail',
            detail: `The motor controller reports: ${error}`,
            advice:
              'Relax the motors, free the head and antennas of anything pressing on them, let the robot cool for a few minutes, then power it off and on. If it comes back, note the motor named and contact support.',
            values: { mode, error },
          };
        return { outcome: 'ok', detail: `Motors answer (mode ${mode}) and report no error.`, values: { mode } };
      },
    },
    {
      id: 'doa',
      title: 'Direction of arrival (DoA)',
      timeoutMs: 3000,
      async run() {
        if ((await daemon.status()).no_media) return NO_MEDIA('microphone array');
        // The daemon answers null until its poller, started by the first read after a minute
        // without demand, has a value (about 0.1 s): ask again a few times within the check's limit.
        let reading = await daemon.doa();
        for (let tries = 0; !reading && tries < 6; tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          reading = await daemon.doa();
        }
        if (!reading)
          return {
            outcome: 'warn',
            detail: 'The microphone array gives no direction of arrival.',
            advice:
              'The audio board may still be starting: wait a minute and check again; if it stays empty, restart the daemon.',
          };
        return {
          outcome: 'ok',
          detail: 'The microphone array answers with a direction of arrival.',
          values: { ...reading },
        };
      },
    },
    {
      id: 'speaker',
      title: 'Speaker test sound',
      timeoutMs: 5000,
      async run(signal) {
        const stops = stop.engagements();
        if ((await daemon.status()).no_media) return NO_MEDIA('speaker');
        if (stop.engaged()) return SILENT;
        const volume = await daemon.volume();
        // The volume read is a daemon round trip, as long as a slow daemon makes it: a STOP that
        // came meanwhile (resumed or not), or the check's time that ran out (its result is out),
        // plays nothing.
        signal.throwIfAborted();
        if (stop.engaged()) return SILENT;
        if (stop.engagements() !== stops) return STOPPED_DURING;
        await daemon.playSound(TEST_SOUND);
        if (volume === 0)
          return {
            outcome: 'warn',
            detail: 'A test sound was sent, but the volume is 0, so nothing can be heard.',
            advice: 'Raise the volume on the dashboard and run the check again.',
            values: { volume },
          };
        return {
          outcome: 'ok',
          detail: `A short test sound played at volume ${volume}. If you heard nothing, check the speaker cable.`,
          values: { volume, sound: TEST_SOUND },
        };
      },
    },
  ];
}
