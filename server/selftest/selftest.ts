/**
 * "Check the robot": the self-test's checks over the cockpit's one daemon client, camera and
 * Control, run side by side with their own time limits (run-checks.ts). One run at a time; the
 * last result is kept for the dashboard and the diagnostics bundle.
 */
import type { AppsService } from '../apps/apps-service.ts';
import type { CameraSetting } from '../camera/camera-setting.ts';
import type { FrameHub } from '../camera/index.ts';
import type { Health } from '../contract/health.ts';
import type { SelfTestRequest, SelfTestResult } from '../contract/selftest.ts';
import type { RobotState } from '../contract/state.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import { AppError, isAppError } from '../errors.ts';
import type { Log } from '../log.ts';
import type { AppLockGuard } from '../motion/app-lock.ts';
import type { Control } from '../motion/control.ts';
import { daemonChecks } from './daemon-checks.ts';
import { hostChecks, type HostProbes } from './host-checks.ts';
import { mediaChecks } from './media-checks.ts';
import { motionCheck } from './motion-check.ts';
import { runChecks } from './run-checks.ts';

export interface SelfTestDeps {
  /** The part of the robot core (server/desktop/robot-core.ts) the checks read. */
  robot: { health(): Health; state(): RobotState | undefined; daemon: DaemonClient };
  camera: Pick<FrameHub, 'configured' | 'snapshot' | 'health' | 'listenMicrophone'>;
  /** The kind of ROBOT_CAMERA: a test card or a local device is not the robot's camera and microphone. */
  cameraSource?: CameraSetting['kind'];
  control: Pick<Control, 'look' | 'home' | 'latch' | 'arbiter' | 'appLock' | 'reelRunner'>;
  apps: Pick<AppsService, 'overview'>;
  dataDir: string;
  log: Log;
  probes?: HostProbes;
  now?: () => number;
}

export interface SelfTest {
  run(request: SelfTestRequest): Promise<SelfTestResult>;
  last(): SelfTestResult | null;
}

const HOLDING = ['starting', 'running', 'stopping'];

/** Who holds the daemon's app lock (a daemon app or a remote session), read now; null when free. */
async function lockHolder(lock: AppLockGuard): Promise<string | null> {
  try {
    await lock.assertFree();
    return null;
  } catch (error) {
    const held = lock.last();
    if (isAppError(error) && error.code === 'ROBOT_APP_LOCKED' && held && held.state !== 'free')
      return held.state === 'local_app'
        ? `the app ${held.holder_name ?? '(unnamed)'} (the daemon's app lock)`
        : `a remote session${held.holder_name && held.holder_name !== 'remote' ? ` (${held.holder_name})` : ''} (the daemon's app lock)`;
    throw error;
  }
}

/** Who has the head in the cockpit (arbiter.ts, busy), in words; the reel even between its moves. */
function headHolder(control: Pick<Control, 'arbiter' | 'reelRunner'>): string | null {
  if (control.reelRunner.status().running) return 'the reel';
  const busy = control.arbiter.busy();
  if (busy === undefined) return null;
  return busy === 'joystick' ? 'the joystick' : `a move in progress (${busy})`;
}

export function createSelfTest(deps: SelfTestDeps): SelfTest {
  let running = false;
  let last: SelfTestResult | null = null;
  const daemon = deps.robot.daemon;
  const daemonClockOffsetMs = async (): Promise<number | null> => {
    const state = await daemon.fullState('with_head_pose=false&with_antenna_positions=false&with_body_yaw=false');
    const at = Date.parse(String((state as { timestamp?: unknown }).timestamp ?? ''));
    return Number.isNaN(at) ? null : at - Date.now();
  };
  return {
    async run(request) {
      if (running) throw new AppError('CONFLICT', 'a self-test is already running');
      running = true;
      try {
        const current = deps.apps.overview().current;
        const checks = [
          ...daemonChecks(daemon, deps.control.latch),
          motionCheck({
            confirmed: request.confirmMove === true,
            appHolder: () => (current && HOLDING.includes(current.state) ? current.name : null),
            lockHolder: () => lockHolder(deps.control.appLock),
            latched: () => deps.control.latch.engaged(),
            stops: () => deps.control.latch.engagements(),
            headHolder: () => headHolder(deps.control),
            testMove: (yaw) => deps.control.look({ yaw, duration: 0.6 }, 'system', { onlyIfIdle: true }),
            home: () => deps.control.home('system', { onlyIfIdle: true }),
            currentMove: () => deps.control.arbiter.current()?.uuid,
            state: () => deps.robot.state(),
          }),
          ...mediaChecks(deps.camera, undefined, deps.cameraSource),
          ...hostChecks({
            dataDir: deps.dataDir,
            pressure: () => deps.robot.health().pressure,
            daemonClockOffsetMs,
            ...(deps.probes ? { probes: deps.probes } : {}),
          }),
        ];
        last = await runChecks(checks, deps.now);
        const failed = last.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn');
        deps.log[last.outcome === 'ok' ? 'info' : 'warn']('self-test finished', {
          outcome: last.outcome,
          problems: failed.map((c) => `${c.id}: ${c.outcome}: ${c.detail}`),
        });
        return last;
      } finally {
        running = false;
      }
    },
    last: () => last,
  };
}
