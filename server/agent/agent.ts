/**
 * The agent runtime of the desktop server composed once: model settings, the agent log, the
 * robot's tools, the Ask runner and fleet chat. server/desktop/features.ts wires it in and mounts
 * `agentRoutes(agent)`; the personas (server/personas/: the thinker, voice, messenger) are built on
 * it; the platform client gets `runFleetTurn`.
 * Nothing here listens or reads process.env.
 */
import { join } from 'node:path';
import type { RobotState } from '../contract/state.ts';
import type { EventFrame } from '../contract/ws.ts';
import type { Schedule, TimerClock } from '../clock.ts';
import type { Log } from '../log.ts';
import type { Control } from '../motion/control.ts';
import type { MoveLibraryCache } from '../motion/move-library.ts';
import { createAgentLog, type AgentLog, type AgentLogFrame } from './agent-log.ts';
import { createAgentRuntime, type AgentRuntime } from './agent-runtime.ts';
import { createAskRunner, type AskRunner } from './ask.ts';
import { createFleetChat, type FleetChat } from './fleet-chat.ts';
import { createModelSettings, type ModelEnv, type ModelSettings } from './providers/model-settings.ts';
import type { PlatformChat } from '../contract/platform.ts';
import type { FetchLike } from './providers/types.ts';
import { createRobotTools } from './tools/robot-tools.ts';
import type { TrackingSwitch } from './tools/sense-tools.ts';
import type { AgentTool } from './tools/types.ts';
import type { WatchdogLimits } from './watchdog.ts';

export interface AgentDeps {
  /** Where agent-model.json (0600) and agent-log.jsonl live. */
  dataDir: string;
  /** ROBOT_MODEL_PROVIDER / _BASE_URL / _MODEL / _KEY, when set: they override the dashboard. */
  env?: ModelEnv;
  control: Control;
  robot: { moves: MoveLibraryCache; state(): RobotState | undefined };
  /** Sends a frame to every /ws client (the hub's broadcast on '/ws'). */
  broadcast: (frame: AgentLogFrame) => void;
  /** The newest event receipts (the event log's `recent`). */
  recentEvents: (limit: number) => readonly EventFrame[];
  /** The latest camera frame as JPEG, undefined while there is none. */
  snapshot: () => Promise<Buffer | undefined>;
  tracking?: TrackingSwitch;
  /** The platform client's chat stream, for the 'platform' provider (may be bound late). */
  platform?: PlatformChat;
  /** use_device and friends; read per turn, never offered to fleet turns. */
  fleetTools?: () => readonly AgentTool[];
  log: Log;
  fetch?: FetchLike;
  /** The running turns, counted by the latched stop too (agent-runtime.ts, `running`). */
  runningTurns?: Set<AbortController>;
  /** The agent log's row times and update throttle; the real clock by default. */
  clock?: TimerClock;
  /** Shorter budgets for tests. */
  tuning?: {
    ask?: WatchdogLimits;
    fleet?: WatchdogLimits;
    chatWaitMs?: number;
    testTimeoutMs?: number;
    /** The turn watchdogs' and the chat wait's timers, for a test to move by hand (server/clock.ts). */
    schedule?: Schedule;
  };
}

export interface Agent {
  readonly settings: ModelSettings;
  readonly agentLog: AgentLog;
  readonly runtime: AgentRuntime;
  readonly ask: AskRunner;
  readonly chat: FleetChat;
  readonly recentEvents: (limit: number) => readonly EventFrame[];
  /** For the platform client's relay invokes: a fleet turn without fleet tools. */
  readonly runFleetTurn: FleetChat['runFleetTurn'];
  /** Loads the settings and the log. */
  start(): Promise<void>;
  /** Ends running turns and waits for the log to reach the disk. */
  stop(): Promise<void>;
}

interface Core {
  settings: ModelSettings;
  agentLog: AgentLog;
  runtime: AgentRuntime;
}

/** What every persona shares: the model settings, the log and the runtime with the tools. */
function buildCore(deps: AgentDeps, log: Log): Core {
  const settings = createModelSettings({
    file: join(deps.dataDir, 'agent-model.json'),
    log: log.child('model'),
    ...(deps.env ? { env: deps.env } : {}),
    ...(deps.platform ? { platform: deps.platform } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.tuning?.testTimeoutMs ? { testTimeoutMs: deps.tuning.testTimeoutMs } : {}),
  });
  const agentLog = createAgentLog({
    file: join(deps.dataDir, 'agent-log.jsonl'),
    broadcast: deps.broadcast,
    log: log.child('log'),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const tools = createRobotTools({
    control: deps.control,
    moves: deps.robot.moves,
    state: () => deps.robot.state(),
    snapshot: deps.snapshot,
    ...(deps.tracking ? { tracking: deps.tracking } : {}),
  });
  const runtime = createAgentRuntime({
    model: settings,
    tools,
    ...(deps.fleetTools ? { fleetTools: deps.fleetTools } : {}),
    agentLog,
    latch: deps.control.latch,
    log,
    ...(deps.runningTurns ? { running: deps.runningTurns } : {}),
    ...(deps.tuning?.schedule ? { schedule: deps.tuning.schedule } : {}),
  });
  return { settings, agentLog, runtime };
}

export function createAgent(deps: AgentDeps): Agent {
  const log = deps.log.child('agent');
  const core = buildCore(deps, log);
  const { settings, agentLog, runtime } = core;
  const ask = createAskRunner({ runtime, ...(deps.tuning?.ask ? { limits: deps.tuning.ask } : {}) });
  const chat = createFleetChat({
    runtime,
    ...(deps.tuning?.chatWaitMs ? { waitMs: deps.tuning.chatWaitMs } : {}),
    ...(deps.tuning?.fleet ? { limits: deps.tuning.fleet } : {}),
    ...(deps.tuning?.schedule ? { schedule: deps.tuning.schedule } : {}),
  });
  return {
    ...core,
    ask,
    chat,
    recentEvents: deps.recentEvents,
    runFleetTurn: (turn) => chat.runFleetTurn(turn),
    async start() {
      await settings.load();
      await agentLog.load();
    },
    async stop() {
      runtime.abortAll(new Error('the cockpit is shutting down'));
      await ask.settled();
      await agentLog.flush();
    },
  };
}
