/**
 * The AudioSource a parsed `source` setting names: the robot's microphone through the camera
 * (daemon-audio-source.ts), or a local device or file through ffmpeg (ffmpeg-audio-source.ts).
 */
import type { Log } from '../../log.ts';
import type { AudioSource } from './audio-source.ts';
import { createDaemonAudioSource, type MicrophoneProvider } from './daemon-audio-source.ts';
import { createSettingSource } from './ffmpeg-audio-source.ts';
import type { SourceSetting } from './source-setting.ts';

export interface AudioSourceDeps {
  log: Log;
  /** The camera's frame hub, for `daemon`; absent, `daemon` fails with the reason. */
  microphone?: MicrophoneProvider;
  /** ffmpeg binary (default from PATH). */
  binary?: string;
  /** Pace files like a microphone (default true; off in tests). */
  realtimeFiles?: boolean;
}

export function createAudioSource(setting: SourceSetting, deps: AudioSourceDeps): AudioSource {
  if (setting.kind === 'daemon') return createDaemonAudioSource(deps.microphone);
  return createSettingSource(setting, deps);
}
