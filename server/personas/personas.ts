/**
 * The personas of the desktop server composed once: the thinker, the voice listener and the
 * messenger bot. Each is an in-process persona of the agent runtime: it acts through the same
 * Control (arbiter, safe ranges, latched stop), writes to the same agent log (persona "thinker",
 * "voice", "messenger"), and registers with the autonomy registry so the latched stop and demo
 * mode pause it. The thinker runs on its interval from the start; voice and messenger are OFF
 * until the owner switches them on in the dashboard, their settings and secrets in the data dir
 * (0600), never in a view.
 */
import { join } from 'node:path';
import type { AgentLog } from '../agent/agent-log.ts';
import type { AgentRuntime } from '../agent/agent-runtime.ts';
import type { AskRunner } from '../agent/ask.ts';
import type { ModelSettings } from '../agent/providers/model-settings.ts';
import type { WatchdogLimits } from '../agent/watchdog.ts';
import type { MessengerPersonaView, PersonasView, VoicePersonaView } from '../contract/personas.ts';
import type { RobotState, ServiceState } from '../contract/state.ts';
import type { EventFrame } from '../contract/ws.ts';
import type { Log } from '../log.ts';
import type { Control } from '../motion/control.ts';
import type { MoveLibraryCache } from '../motion/move-library.ts';
import type { Holds } from '../holds.ts';
import { createMessenger, type Messenger } from './messenger/messenger-bot.ts';
import { createMessengerSettings } from './messenger/messenger-settings.ts';
import { createMessengerState } from './messenger/messenger-state.ts';
import type { MicrophoneProvider } from './voice/daemon-audio-source.ts';
import { DAEMON_SOURCE, DEFAULT_SOURCE } from './voice/source-setting.ts';
import { createVoiceListener, type VoiceListener } from './voice/voice-listener.ts';
import { createVoiceSettings } from './voice/voice-settings.ts';
import type { HeardUtterance } from './voice/voice-turn.ts';
import { createThinker, type Thinker, type ThinkerDeps } from './thinker/thinker.ts';

export interface PersonasDeps {
  /** Where voice-persona.json, messenger-persona.json and messenger-state.json live. */
  dataDir: string;
  agent: {
    runtime: Pick<AgentRuntime, 'start'>;
    agentLog: AgentLog;
    settings: Pick<ModelSettings, 'configured' | 'provider'>;
    /** The thinker holds still while a dashboard Ask runs. */
    ask: Pick<AskRunner, 'running'>;
  };
  control: Pick<Control, 'say' | 'speaking'> & ThinkerDeps['control'];
  robot: { moves: Pick<MoveLibraryCache, 'get'>; state(): RobotState | undefined };
  /** The event log's receipts: the thinker holds still while an operator is busy. */
  recentEvents: (limit: number) => readonly EventFrame[];
  thinker: { intervalSeconds: number; limits?: WatchdogLimits };
  /** Face tracking's holds: the voice persona holds `speaking` while it answers. */
  holds: Holds;
  /** The newest camera picture as JPEG, for the messenger's photos. */
  snapshot(): Promise<Buffer | undefined>;
  services: Map<string, ServiceState>;
  log: Log;
  platform?: NodeJS.Platform;
  /** The camera's frame hub: the robot's microphone (voice source `daemon`) where it is the daemon's WebRTC. */
  microphone?: MicrophoneProvider;
  /** Every utterance the voice persona understood (the platform's transcript route, when linked). */
  heard?: (heard: HeardUtterance) => void;
}

export interface Personas {
  readonly thinker: Thinker;
  view(): PersonasView;
  updateVoice(raw: unknown): Promise<VoicePersonaView>;
  updateMessenger(raw: unknown): Promise<MessengerPersonaView>;
  allowChat(chatId: number): Promise<MessengerPersonaView>;
  removeChat(chatId: number): Promise<MessengerPersonaView>;
  /** Loads the settings, registers with the autonomy registry, starts the thinker and what is switched on. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createPersonas(deps: PersonasDeps): Personas {
  const log = deps.log.child('personas');
  const file = (name: string) => join(deps.dataDir, name);
  // "Through the daemon's media where available": the default follows the camera.
  const defaultSource = deps.microphone?.microphoneName ? DAEMON_SOURCE : DEFAULT_SOURCE;
  const voiceSettings = createVoiceSettings({
    file: file('voice-persona.json'),
    log,
    defaultSource,
    ...(deps.platform ? { platform: deps.platform } : {}),
  });
  const messengerSettings = createMessengerSettings({ file: file('messenger-persona.json'), log });
  const messengerState = createMessengerState({ file: file('messenger-state.json'), log });
  const voice: VoiceListener = createVoiceListener({
    settings: voiceSettings,
    runtime: deps.agent.runtime,
    agentLog: deps.agent.agentLog,
    say: (text) => deps.control.say(text, 'system'),
    speakerBusy: () => deps.control.speaking(),
    holds: deps.holds,
    services: deps.services,
    log: log.child('voice'),
    ...(deps.platform ? { platform: deps.platform } : {}),
    ...(deps.microphone ? { microphone: deps.microphone } : {}),
    ...(deps.heard ? { heard: deps.heard } : {}),
  });
  const messenger: Messenger = createMessenger({
    settings: messengerSettings,
    state: messengerState,
    runtime: deps.agent.runtime,
    agentLog: deps.agent.agentLog,
    snapshot: deps.snapshot,
    services: deps.services,
    log: log.child('messenger'),
  });
  const thinker = createThinker({
    control: deps.control,
    moves: deps.robot.moves,
    state: () => deps.robot.state(),
    services: deps.services,
    recentEvents: deps.recentEvents,
    agentLog: deps.agent.agentLog,
    model: deps.agent.settings,
    askRunning: () => deps.agent.ask.running(),
    intervalSeconds: deps.thinker.intervalSeconds,
    log: log.child('thinker'),
    ...(deps.thinker.limits ? { limits: deps.thinker.limits } : {}),
  });
  const unregister: Array<() => void> = [];
  const voiceView = (): VoicePersonaView => ({ settings: voiceSettings.view(), status: voice.status() });
  const messengerView = (): MessengerPersonaView => ({
    settings: messengerSettings.view(),
    status: messenger.status(),
  });
  const applyMessenger = (): MessengerPersonaView => {
    messenger.apply();
    return messengerView();
  };
  return {
    thinker,
    view: () => ({ voice: voiceView(), messenger: messengerView() }),
    async updateVoice(raw) {
      await voiceSettings.update(raw);
      voice.apply();
      return voiceView();
    },
    updateMessenger: async (raw) => (await messengerSettings.update(raw), applyMessenger()),
    allowChat: async (chatId) => (await messengerSettings.allowChat(chatId), applyMessenger()),
    removeChat: async (chatId) => (await messengerSettings.removeChat(chatId), applyMessenger()),
    async start() {
      await Promise.all([voiceSettings.load(), messengerSettings.load(), messengerState.load()]);
      unregister.push(
        deps.control.autonomy.register('voice', voice),
        deps.control.autonomy.register('messenger', messenger),
      );
      voice.apply();
      messenger.apply();
      thinker.start();
    },
    async stop() {
      thinker.stop();
      for (const off of unregister.splice(0)) off();
      await Promise.all([voice.close(), messenger.close()]);
    },
  };
}
