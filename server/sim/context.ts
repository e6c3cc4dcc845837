/**
 * One simulated robot: world, moves, speaker, mic array, lifecycle, fault switches and
 * counters, wired together. Routes and sockets receive this object; nothing here knows HTTP.
 */
import { systemClock, type TimerClock } from '../clock.ts';
import type { Log } from '../log.ts';
import { createSimApps, type SimApps } from './apps.ts';
import { createDaemonLog, type DaemonLog } from './daemon-log.ts';
import { createDoa, type Doa } from './doa.ts';
import { createLifecycle, type Lifecycle } from './lifecycle.ts';
import { createMoveRunner, type MoveRunner } from './moves.ts';
import type { SequenceDeps } from './sequences.ts';
import { createSoundBoard, type SoundBoard, type SoundPlay } from './sounds.ts';
import { createTimers, type Timers } from './timers.ts';
import type { MicrophoneStatus } from './microphone.ts';
import type { FaceTarget } from './tracking.ts';
import { createWorld, type World } from './world.ts';

/** Activity a test or the cockpit's health checks may want to assert on. */
export interface SimCounters {
  /** Currently open sockets per endpoint. */
  stateWsClients: number;
  updatesWsClients: number;
  setTargetWsClients: number;
  /** The `frequency` of each open state stream, in the order they opened. */
  stateStreamRates: number[];
  /** Plain HTTP requests outside /sim (WebSocket upgrades are not counted). */
  httpRequests: number;
  /** `METHOD /path` of each request the latency fault holds right now: a test's sign that it arrived. */
  heldByLatency: string[];
  soundsPlayed: SoundPlay[];
  soundStops: number;
  mediaReleases: number;
  mediaAcquires: number;
  volumeSets: number;
  /** set_target calls applied (REST and WebSocket), not the ignored ones. */
  targetsApplied: number;
  /** Camera WebRTC sessions open now and since start: each is one upstream camera client. */
  cameraSessions: number;
  cameraSessionsTotal: number;
  /** Most camera sessions open at once since start (one client never holds two). */
  cameraSessionsPeak: number;
  /** Of the open camera sessions, those whose answer took the microphone (each runs an Opus encoder). */
  cameraAudioSessions: number;
  /** Sockets open on the camera signalling server. */
  cameraSignallingClients: number;
}

export type CameraCounters = Pick<
  SimCounters,
  'cameraSessions' | 'cameraSessionsTotal' | 'cameraSessionsPeak' | 'cameraAudioSessions' | 'cameraSignallingClients'
>;

/** The simulated camera (camera.ts) as the routes see it. */
export interface CameraState {
  /** /sim/camera: whether the camera works at all. */
  on: boolean;
  /** `ws://…` of the webrtcsink-style signalling server; '' before it listens. */
  signallingUrl: string;
  /** Re-reads `on` and the media release; the camera replaces this once it runs. */
  sync(): void;
  counters(): CameraCounters;
  /** /sim/microphone: the robot hears this clip (PCM16 LE mono 48 kHz); the camera replaces this. */
  hear(clip: Buffer): void;
  microphone(): MicrophoneStatus | null;
  /** /sim/microphone-fault: a microphone that delivers only zeros (the known Linux/USB fault); the camera replaces this. */
  setSilent(on: boolean): void;
}

export interface Faults {
  latencyMs: number;
  hang: boolean;
  /** /sim/motors: the motor controller's error, reported in the status's `backend_status.error`. */
  motorError: string | null;
}

export interface SimContext {
  log: Log;
  monoS(): number;
  wallMs(): number;
  timers: Timers;
  world: World;
  moves: MoveRunner;
  sounds: SoundBoard;
  doa: Doa;
  lifecycle: Lifecycle;
  /** The app store and the app running on the robot (apps.ts). */
  apps: SimApps;
  /** The daemon's log as journald holds it (daemon-log.ts): the app runner's lines. */
  daemonLog: DaemonLog;
  /** Behave as a Wireless build (`wireless_version`, the log stream); off unless `/sim/wireless`. */
  wireless: boolean;
  faults: Faults;
  counters: Omit<SimCounters, 'soundsPlayed' | keyof CameraCounters>;
  media: { released: boolean };
  camera: CameraState;
  volume: { speaker: number; microphone: number };
  robotName: string;
  /** Who holds the managed-app slot (`/api/daemon/robot-app-lock-status`); set by `/sim/app-lock`. */
  appLock: { state: 'free' | 'local_app' | 'remote_session'; holder_name: string | null };
  sequences: SequenceDeps;
  /** The face last reported; the status keeps it while the backend is down. */
  lastFace: FaceTarget;
  /** Starts a sound unless the media devices are released to another program. */
  playSound(file: string, seconds?: number): void;
  snapshotCounters(): SimCounters;
  /** One 50 Hz control-loop step. */
  tick(): void;
}

export function createSimContext(log: Log, clock: TimerClock = systemClock): SimContext {
  const timers = createTimers(clock);
  const world = createWorld();
  const daemonLog = createDaemonLog();
  const moves = createMoveRunner(world, (fn) => setImmediate(fn));
  const sounds = createSoundBoard();
  const media = { released: false };
  // The control loop's time, seconds (moves, DoA); the clock's, so a test can move it by hand.
  const monoS = (): number => clock.now() / 1000;
  const counters = {
    stateWsClients: 0,
    updatesWsClients: 0,
    setTargetWsClients: 0,
    stateStreamRates: [] as number[],
    httpRequests: 0,
    heldByLatency: [] as string[],
    soundStops: 0,
    mediaReleases: 0,
    mediaAcquires: 0,
    volumeSets: 0,
    targetsApplied: 0,
  };

  const playSound = (file: string, seconds?: number): void => {
    if (media.released) return;
    if (!sounds.play(file, clock.now(), seconds)) log.debug('sound not found, nothing played', { file });
  };
  const sequences: SequenceDeps = {
    world,
    playSound,
    quiesce: () => {
      sounds.wobbling = false;
      world.tracking.disable();
    },
    setMode: (mode) => world.setMode(mode),
  };
  const lifecycle = createLifecycle({
    moves,
    timers,
    sequences,
    monoS,
    freshBackend: () => {
      world.tracking.disable();
      if (!world.realistic) world.setMode('enabled');
    },
  });

  const ctx: SimContext = {
    log,
    monoS,
    wallMs: () => clock.now(),
    timers,
    world,
    moves,
    sounds,
    doa: createDoa(),
    lifecycle,
    apps: createSimApps(timers, daemonLog),
    daemonLog,
    wireless: false,
    faults: { latencyMs: 0, hang: false, motorError: null },
    counters,
    media,
    camera: {
      on: true,
      signallingUrl: '',
      sync: () => {},
      counters: () => ({
        cameraSessions: 0,
        cameraSessionsTotal: 0,
        cameraSessionsPeak: 0,
        cameraAudioSessions: 0,
        cameraSignallingClients: 0,
      }),
      hear: () => {},
      microphone: () => null,
      setSilent: () => {},
    },
    volume: { speaker: 70, microphone: 50 },
    robotName: 'reachy_mini',
    appLock: { state: 'free', holder_name: null },
    sequences,
    lastFace: world.tracking.report(),
    playSound,
    snapshotCounters: () => ({
      ...counters,
      heldByLatency: [...counters.heldByLatency],
      stateStreamRates: [...counters.stateStreamRates],
      ...ctx.camera.counters(),
      soundsPlayed: sounds.plays.map((p) => ({ ...p })),
    }),
    tick() {
      // No backend, no control loop: the body stays where it was left.
      if (!lifecycle.ready) return;
      const now = monoS();
      moves.tick(now);
      world.tick(now, clock.now() / 1000);
      ctx.lastFace = world.tracking.report();
    },
  };
  return ctx;
}
