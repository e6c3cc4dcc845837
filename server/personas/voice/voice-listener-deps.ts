/**
 * What the voice listener's owner (server/personas/personas.ts) hands it, declared on its own so
 * the listener's parts (utterance-queue.ts, listening-source.ts) can each take the slice they use
 * without importing voice-listener.ts, which imports them. Re-exported by voice-listener.ts.
 */
import type { AgentLog } from '../../agent/agent-log.ts';
import type { AgentRuntime } from '../../agent/agent-runtime.ts';
import type { WatchdogLimits } from '../../agent/watchdog.ts';
import type { ServiceState } from '../../contract/state.ts';
import type { Log } from '../../log.ts';
import type { Holds } from '../../holds.ts';
import type { Schedule } from '../../perception/schedule.ts';
import type { AudioSource } from './audio-source.ts';
import type { MicrophoneProvider } from './daemon-audio-source.ts';
import type { SourceSetting } from './source-setting.ts';
import type { Transcriber } from '../../speech/transcriber.ts';
import type { VoiceConfig } from './voice-settings.ts';
import type { HeardUtterance } from './voice-turn.ts';

export interface VoiceListenerDeps {
  settings: { current(): VoiceConfig };
  runtime: Pick<AgentRuntime, 'start'>;
  agentLog: Pick<AgentLog, 'add'>;
  say(text: string): Promise<{ seconds: number }>;
  holds: Holds;
  log: Log;
  services?: Map<string, ServiceState>;
  platform?: NodeJS.Platform;
  /** The camera's frame hub: the robot's microphone for the `daemon` source. */
  microphone?: MicrophoneProvider;
  makeSource?: (setting: SourceSetting) => AudioSource;
  /**
   * Whether the robot's speaker is saying something (Control.speaking): a say from the dashboard,
   * a tool or another persona reaches the microphone as much as the listener's own answers do.
   */
  speakerBusy?: () => boolean;
  makeTranscriber?: (config: VoiceConfig['transcription']) => Transcriber;
  schedule?: Schedule;
  now?: () => number;
  limits?: WatchdogLimits;
  /**
   * Told every utterance that was understood, before its turn runs (the platform stores it as an
   * on-device transcript while the robot is linked). Must not throw or wait.
   */
  heard?: (heard: HeardUtterance) => void;
}
