/**
 * The voice listener and the messenger bot composed for the desktop server. Both are
 * in-process personas of the agent runtime, like the thinker: they act through the same Control
 * (arbiter, safe ranges, latched stop), write to the same agent log (persona "voice" and
 * "messenger"), and register with the persona registry so the latched stop and demo mode pause
 * them. Both are OFF until the owner switches them on in the dashboard; their settings and
 * secrets live in the data dir (0600) and the views never carry the secrets.
 */
import { join } from 'node:path';
import type { AgentLog } from '../agent/agent-log.ts';
import type { AgentRuntime } from '../agent/agent-runtime.ts';
import type { MessengerPersonaView, PersonasView, VoicePersonaView } from '../contract/personas.ts';
import type { ServiceState } from '../contract/state.ts';
import type { Log } from '../log.ts';
import type { Control } from '../motion/control.ts';
import type { Holds } from '../holds.ts';
import { createMessenger, type Messenger } from './messenger/messenger-bot.ts';
import { createMessengerSettings } from './messenger/messenger-settings.ts';
import { createMessengerState } from './messenger/messenger-state.ts';
import type { MicrophoneProvider } from './voice/daemon-audio-source.ts';
import { DAEMON_SOURCE, DEFAULT_SOURCE } from './voice/source-setting.ts';
import { createVoiceListener, type VoiceListener } from './voice/voice-listener.ts';
import { createVoiceSettings } from './voice/voice-settings.ts';
import type { HeardUtterance } from './voice/voice-turn.ts';

export interface PersonasDeps {
  /** Where voice-persona.json, messenger-persona.json and messenger-state.json live. */
  dataDir: string;
  agent: { runtime: Pick<AgentRuntime, 'start'>; agentLog: Pick<AgentLog, 'add' | 'page'> };
  control: Pick<Control, 'say' | 'autonomy'>;
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
  view(): PersonasView;
  updateVoice(raw: unknown): Promise<VoicePersonaView>;
  updateMessenger(raw: unknown): Promise<MessengerPersonaView>;
  allowChat(chatId: number): Promise<MessengerPersonaView>;
  removeChat(chatId: number): Promise<MessengerPersonaView>;
  /** Loads the settings, registers with the persona registry and starts what is switched on. */
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
    },
    async stop() {
      for (const off of unregister.splice(0)) off();
      await Promise.all([voice.close(), messenger.close()]);
    },
  };
}
