/**
 * Motion and control for the desktop server, composed once per robot: the move-event stream,
 * the joystick stream, the arbiter, the latched stop, personas, the reel, volume and speech.
 * `controlRoutes(control)` exposes it over HTTP; the /ws hub feeds joystick frames to
 * `streamTarget`. Motion controls are refused with 409 STOP_LATCHED while the stop is engaged;
 * motors, volume, demo, reel abort and the stop itself stay available (README-control.md).
 */
import { systemClock, type TimerClock } from '../clock.ts';
import type { MotorMode, ServiceState } from '../contract/state.ts';
import type { CredentialKind } from '../contract/ws.ts';
import { UNKNOWN_CAPABILITIES, type Capabilities } from '../daemon/capabilities.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { FeedSnapshot, StateFeed } from '../daemon/state-feed.ts';
import { wirePoseToXyzRpy } from '../daemon/units.ts';
import type { FullBodyTarget } from '../daemon/wire.ts';
import { AppError } from '../errors.ts';
import type { Log } from '../log.ts';
import type { SpeechEngine } from '../speech/engine.ts';
import { createEspeakEngine } from '../speech/espeak.ts';
import { createSpeaker, type SayResult, type Speaker } from '../speech/speaker.ts';
import { createAppLockGuard, lockedError, type AppLockGuard } from './app-lock.ts';
import { createArbiter, type Arbiter } from './arbiter.ts';
import type { LookInput, ReelStatus } from '../contract/motion.ts';
import type { AntennasInput, ReelAction } from './control-input.ts';
import {
  emergencyStop,
  resumeAfterStop,
  type ResumeResult,
  type StopExtras,
  type StopMemo,
  type StopNotice,
  type StopResult,
} from './emergency-stop.ts';
import * as gotos from './goto-controls.ts';
import type { StreamResult } from './joystick.ts';
import { createMoveEvents, type MoveEvents } from './move-events.ts';
import type { MoveLibraryCache } from './move-library.ts';
import { createAutonomyRegistry, type AutonomyRegistry, type AutonomyStatus } from './autonomy.ts';
import { receipt, type Emit } from './receipts.ts';
import { noHolds, type Holds, type StopHold } from '../holds.ts';
import { createReel, type Reel } from './reel.ts';
import type { ReelStep } from './reel-script.ts';
import * as robotControls from './robot-controls.ts';
import { createStopLatch, type StopLatch } from './stop-latch.ts';
import { createTargetStream, type TargetStream } from './target-stream.ts';
import { createVolumeControl, type VolumeControl } from './volume.ts';

export interface ControlDeps {
  /** The robot core's pieces this needs (structural, so motion does not import desktop). */
  robot: {
    daemon: DaemonClient;
    moves: MoveLibraryCache;
    services: Map<string, ServiceState>;
    /** What the connected daemon offers (the robot core's capability map); unknown when absent. */
    capabilities?: () => Capabilities;
    /** The state feed's view of the daemon: joystick frames are refused while it is down. */
    feed?: Pick<StateFeed, 'snapshot' | 'onSample'>;
  };
  /** The event log: assigns id and time, broadcasts `{type: "event"}` on /ws. */
  emit: Emit;
  /** Face-tracking holds, and its pause while the stop is latched; nothing to pause until then. */
  holds?: Holds & StopHold;
  log: Log;
  engine?: SpeechEngine;
  /** Tuning for tests: a short reel, a shorter pause, faster debounce and watchdog. */
  reel?: { script?: readonly ReelStep[]; pauseMs?: number };
  volumeQuietMs?: number;
  /** Time for the timing rules (volume debounce, joystick stream, end of a spoken clip, a move's length); the real clock by default. */
  clock?: TimerClock;
  joystick?: { tickMs?: number; idleMs?: number };
  /** Hears every latched stop with who pressed it, down to the passkey (emergency-stop.ts, StopNotice). */
  onStop?: (stop: StopNotice) => void;
  /**
   * The latched stop, when the caller builds it first: what the stop ends beyond motion (the
   * robot's app) must itself honour the latch, so it is built before Control and given here.
   */
  latch?: StopLatch;
  /** What else the stop ends: the robot's app, and the agent turns it counts for its receipt. */
  stopExtras?: StopExtras;
}

type Ack = { uuid: string };

export interface Control {
  look(
    input: LookInput,
    credential: CredentialKind,
    options?: gotos.MoveOptions,
  ): Promise<gotos.GotoResult<gotos.LookApplied>>;
  antennas(input: AntennasInput, credential: CredentialKind): Promise<gotos.GotoResult<AntennasInput>>;
  home(credential: CredentialKind, options?: gotos.MoveOptions): Promise<Ack>;
  express(name: string, credential: CredentialKind): Promise<Ack & { name: string; dataset: string }>;
  wake(credential: CredentialKind): Promise<Ack>;
  sleep(credential: CredentialKind): Promise<Ack>;
  motors(mode: MotorMode, credential: CredentialKind): Promise<{ mode: MotorMode }>;
  volume(level: number, credential: CredentialKind): { level: number; pending: boolean };
  demo(on: boolean, credential: CredentialKind): Promise<{ on: boolean; personas: Record<string, AutonomyStatus> }>;
  /** Starting reads the app lock first, as every manual motion does; aborting never waits. */
  reel(action: ReelAction, credential: CredentialKind): Promise<ReelStatus>;
  say(text: string, credential: CredentialKind): Promise<SayResult>;
  /** `credentialId`: the passkey that pressed it, when a passkey session did. */
  stop(credential: CredentialKind, credentialId?: string): Promise<StopResult>;
  resume(credential: CredentialKind): ResumeResult;
  /** A `{type: "joystick"}` frame from /ws and the socket's caller; see joystick.ts. */
  streamTarget(frame: unknown, caller: { kind: CredentialKind | 'anonymous' }): StreamResult;
  readonly autonomy: AutonomyRegistry;
  readonly arbiter: Arbiter;
  readonly reelRunner: Reel;
  readonly latch: StopLatch;
  /** The daemon's robot app lock, read before every manual motion (app-lock.ts). */
  readonly appLock: AppLockGuard;
  /** True while the speaker plays a clip. */
  speaking(): boolean;
  /** Opens the move-event subscription. */
  start(): void;
  close(): void;
}

interface Parts {
  events: MoveEvents;
  stream: TargetStream;
  latch: StopLatch;
  arbiter: Arbiter;
  autonomy: AutonomyRegistry;
  reel: Reel;
  speaker: Speaker;
  volume: VolumeControl;
  appLock: AppLockGuard;
}

function buildParts(deps: ControlDeps): Parts {
  const { daemon, services } = deps.robot;
  const log = deps.log;
  const holds = deps.holds ?? noHolds;
  // The joystick stream's own clock times when the daemon last sent a state (target-stream.ts, lastHeard).
  const streamClock = deps.clock ?? systemClock;
  // On the same clock as the arbiter's: a move's wait for its end, the polls, retries and pings.
  const events = createMoveEvents({ daemon, log: log.child('move-events'), clock: streamClock });
  let heardAt: number | undefined;
  const feed = deps.robot.feed;
  feed?.onSample(() => (heardAt = streamClock.now()));
  const stream = createTargetStream({
    baseUrl: daemon.baseUrl,
    log: log.child('joystick'),
    ...deps.joystick,
    clock: streamClock,
    ...(feed ? { lastHeard: () => heardAt, holdTarget: () => holdTargetOf(feed.snapshot()) } : {}),
  });
  const latch = deps.latch ?? createStopLatch(services);
  const arbiter = createArbiter({
    daemon,
    events,
    stream,
    latch,
    holds,
    emit: deps.emit,
    log: log.child('arbiter'),
    now: () => streamClock.now(),
    bodyYaw: () => gotos.bodyYawOf(feed?.snapshot()),
  });
  const autonomy = createAutonomyRegistry(log.child('autonomy'));
  const appLock = createAppLockGuard({
    daemon,
    capabilities: deps.robot.capabilities ?? (() => UNKNOWN_CAPABILITIES),
  });
  const reel = createReel({
    arbiter,
    moves: deps.robot.moves,
    latch,
    appLock,
    services,
    emit: deps.emit,
    log: log.child('reel'),
    ...deps.reel,
  });
  const speaker = createSpeaker({
    daemon,
    engine: deps.engine ?? createEspeakEngine(),
    holds,
    log: log.child('speech'),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const volume = createVolumeControl({
    daemon,
    log: log.child('volume'),
    ...(deps.volumeQuietMs !== undefined ? { quietMs: deps.volumeQuietMs } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
    onSettled: (level, error) => {
      if (error)
        deps.emit(receipt('volume', `volume ${level} not applied: ${error}`, 'system', { level, applied: false }));
    },
  });
  return { events, stream, latch, arbiter, autonomy, reel, speaker, volume, appLock };
}

export function createControl(deps: ControlDeps): Control {
  const p = buildParts(deps);
  const { emit } = deps;
  const tracking = deps.holds ?? noHolds;
  const gotoDeps = {
    arbiter: p.arbiter,
    emit,
    headYaw: () => gotos.headYawOf(deps.robot.feed?.snapshot()),
    bodyYaw: () => gotos.bodyYawOf(deps.robot.feed?.snapshot()),
  };
  const robotDeps = {
    daemon: deps.robot.daemon,
    arbiter: p.arbiter,
    moves: deps.robot.moves,
    emit,
    latch: p.latch,
    ...(deps.clock ? { now: () => deps.clock?.now() ?? Date.now() } : {}),
  };
  // Async, so a latched stop is a rejected promise like every other refusal. The app lock is
  // read before every manual motion: a daemon app or remote session holding the robot wins.
  // The latch is asked again after the lock read: a STOP that landed while the daemon answered
  // has already silenced the speaker, and a say (which no arbiter guards) would speak after it.
  // A STOP already resumed by then counts too: the operator stopped the robot after asking.
  const motion = async <T>(task: () => Promise<T>): Promise<T> => {
    p.latch.assertFree();
    const stops = p.latch.engagements();
    await p.appLock.assertFree();
    p.latch.assertFree();
    if (p.latch.engagements() !== stops)
      throw new AppError('STOP_LATCHED', 'stopped while this was being asked for; ask again');
    return task();
  };
  // A frame for a daemon that is down would go nowhere (target-stream.ts drops it while its socket
  // is closed) under a receipt saying the joystick drives: refuse it as a REST move is refused.
  const daemonDown = (): StreamResult | undefined => {
    const problems = deps.robot.feed?.snapshot().problems ?? {};
    const unreachable = problems['daemon:unreachable'];
    if (unreachable) return { accepted: false, code: 'DAEMON_UNREACHABLE', error: unreachable };
    const stopped = problems['daemon:stopped'];
    if (stopped) return { accepted: false, code: 'DAEMON_STOPPED', error: stopped };
    return undefined;
  };
  // Joystick frames arrive at up to 30 Hz: they use the last lock reading, refreshed once a second
  // of Control's clock, the one the rest of the motion runs on.
  const clock = deps.clock ?? systemClock;
  let lockReadAt: number | undefined;
  const streamTarget: Control['streamTarget'] = (frame, caller) => {
    const down = caller.kind !== 'anonymous' && !p.latch.engaged() ? daemonDown() : undefined;
    if (down) return down;
    const now = clock.now();
    if (lockReadAt === undefined || now - lockReadAt > 1000) {
      lockReadAt = now;
      void p.appLock.assertFree().catch(() => undefined);
    }
    const held = p.appLock.last();
    if (held && held.state !== 'free' && caller.kind !== 'anonymous') {
      return { accepted: false, code: 'ROBOT_APP_LOCKED', error: lockedError(held).message };
    }
    return p.arbiter.streamTarget(frame, caller);
  };
  deps.robot.services.set('demo', { state: 'off', detail: 'autonomous personas active' });
  const stopMemo: StopMemo = { appStopped: null };
  return {
    look: (input, c, options) => motion(() => gotos.look(gotoDeps, input, c, options)),
    antennas: (input, c) => motion(() => gotos.antennas(gotoDeps, input, c)),
    home: (c, options) => motion(() => gotos.home(gotoDeps, c, options)),
    express: (name, c) => motion(() => robotControls.express(robotDeps, name, c)),
    wake: (c) => motion(() => robotControls.wake(robotDeps, c)),
    sleep: (c) => motion(() => robotControls.sleep(robotDeps, c)),
    motors: (mode, c) => robotControls.motors(robotDeps, mode, c),
    volume(level, c) {
      p.volume.set(level);
      emit(receipt('volume', `volume ${level}`, c, { level }));
      return { level, pending: true };
    },
    async demo(on, c) {
      await (on ? p.autonomy.pauseAll('demo') : p.autonomy.resumeAll('demo'));
      const detail = on ? 'demo mode: autonomous personas paused' : 'autonomous personas active';
      deps.robot.services.set('demo', { state: on ? 'running' : 'off', detail });
      emit(
        receipt(
          'demo',
          on ? 'demo mode on: autonomous personas paused' : 'demo mode off: autonomous personas resumed',
          c,
          { on },
        ),
      );
      return { on, personas: p.autonomy.status() };
    },
    reel: async (action, c) =>
      action === 'start' ? motion(async () => p.reel.start(c)) : p.reel.abort('aborted by the operator', c),
    say: (text, c) => motion(() => say(p.speaker, emit, text, c)),
    stop: (c, credentialId) =>
      emergencyStop(
        {
          latch: p.latch,
          tracking,
          arbiter: p.arbiter,
          reel: p.reel,
          speaker: p.speaker,
          autonomy: p.autonomy,
          emit,
          joystickActive: p.stream.active(),
          ...(deps.stopExtras ? { extras: deps.stopExtras } : {}),
          memo: stopMemo,
          ...(deps.onStop ? { onStop: deps.onStop } : {}),
        },
        c,
        credentialId,
      ),
    resume: (c) => resumeAfterStop({ latch: p.latch, tracking, autonomy: p.autonomy, emit, memo: stopMemo }, c),
    streamTarget,
    autonomy: p.autonomy,
    arbiter: p.arbiter,
    reelRunner: p.reel,
    latch: p.latch,
    appLock: p.appLock,
    speaking: () => p.speaker.speaking(),
    start: () => p.events.start(),
    close() {
      p.reel.abort('shutdown', 'system');
      p.events.stop();
      p.stream.close();
      p.volume.close();
    },
  };
}

/** The head where the feed's latest sample has it, as a target: what the latched stop leaves it at (target-stream.ts, halt). */
function holdTargetOf(snapshot: Pick<FeedSnapshot, 'sample'>): FullBodyTarget | undefined {
  const pose = snapshot.sample?.state.head_pose;
  return pose ? { target_head_pose: wirePoseToXyzRpy(pose) } : undefined;
}

async function say(speaker: Speaker, emit: Emit, text: string, credential: CredentialKind): Promise<SayResult> {
  const result = await speaker.say(text);
  const quoted = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  emit(
    receipt('say', `say "${quoted}" (${result.seconds.toFixed(1)} s)`, credential, { chars: text.length, ...result }),
  );
  return result;
}
