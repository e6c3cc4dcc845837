/**
 * Integration rig for the voice listener: the agent rig (simulated daemon, robot core, real
 * Control, composed agent, fake OpenAI model server) with the model configured, a fake
 * transcription endpoint, an espeak-ng utterance written to a WAV file, and a listener over
 * in-memory settings whose file source decodes as fast as ffmpeg can (no real-time pacing).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAgentRig, type AgentRig } from '../../../agent/testing/agent-rig.ts';
import { silentLog } from '../../../log.ts';
import { until } from '../../../motion/testing/rig.ts';
import { makeTempDir } from '../../../store/testing/temp-dir.ts';
import type { Schedule } from '../../../perception/schedule.ts';
import { createAudioSource } from '../make-audio-source.ts';
import { createVoiceListener, type VoiceListener } from '../voice-listener.ts';
import { VOICE_DEFAULTS, type VoiceConfig } from '../voice-settings.ts';
import { startFakeTranscription, type FakeTranscription } from './fake-transcription.ts';
import { espeakWav } from './synthetic-audio.ts';

export interface TimedHold {
  op: 'take' | 'release';
  at: number;
  ttl?: number;
}

export interface VoiceRig {
  rig: AgentRig;
  stt: FakeTranscription;
  listener: VoiceListener;
  config: VoiceConfig;
  /** The espeak-ng utterance on disk. */
  wavPath: string;
  holds: TimedHold[];
  close(): Promise<void>;
}

/** `schedule`: the listener's timers (the spoken answer's length, the hold's tail), when the test moves them. */
export async function startVoiceRig(
  spoken: string,
  heard: string,
  options: { schedule?: Schedule } = {},
): Promise<VoiceRig> {
  const rig = await startAgentRig({ routes: () => [] });
  await until(() => rig.robot.feed.snapshot().presence === 'connected');
  await rig.agent.settings.update({ provider: 'openai', baseUrl: rig.fake.url, model: 'fake-model' });
  const stt = await startFakeTranscription({ key: 'sk-stt', script: () => heard });
  const dir = await makeTempDir('rc-voice-');
  const wavPath = join(dir.dir, 'utterance.wav');
  await writeFile(wavPath, await espeakWav(spoken));
  const holds: TimedHold[] = [];
  const config: VoiceConfig = {
    ...VOICE_DEFAULTS,
    enabled: true,
    source: `file:${wavPath}`,
    transcription: { baseUrl: stt.url, model: 'whisper-1', language: '', key: 'sk-stt' },
  };
  const listener = createVoiceListener({
    settings: { current: () => config },
    runtime: rig.agent.runtime,
    agentLog: rig.agent.agentLog,
    say: (text) => rig.control.say(text, 'system'),
    holds: {
      take: (name, ttl) => void (name === 'speaking' && holds.push({ op: 'take', at: Date.now(), ttl })),
      release: (name) => void (name === 'speaking' && holds.push({ op: 'release', at: Date.now() })),
    },
    services: rig.robot.services,
    log: silentLog,
    makeSource: (setting) => createAudioSource(setting, { log: silentLog, realtimeFiles: false }),
    ...(options.schedule ? { schedule: options.schedule } : {}),
  });
  return {
    rig,
    stt,
    listener,
    config,
    wavPath,
    holds,
    async close() {
      await listener.close();
      await stt.close();
      await rig.close();
      await dir.cleanup();
    },
  };
}
