/**
 * Integration rig for the messenger: the agent rig (simulator, Control, composed agent, fake
 * OpenAI model, configured), a fake bot API, and the messenger over real settings and state
 * documents in a temp folder. `restart()` closes the messenger and builds a new one over the
 * same files, as a cockpit restart would.
 */
import { join } from 'node:path';
import { startAgentRig, type AgentRig } from '../../../agent/testing/agent-rig.ts';
import { silentLog } from '../../../log.ts';
import { until } from '../../../motion/testing/rig.ts';
import { makeTempDir } from '../../../store/testing/temp-dir.ts';
import { createMessenger, type Messenger } from '../messenger-bot.ts';
import { createMessengerSettings, type MessengerSettings } from '../messenger-settings.ts';
import { createMessengerState } from '../messenger-state.ts';
import { startFakeBotApi, type FakeBotApi } from './fake-bot-api.ts';

export const PHOTO = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0xff, 0xd9]);

export interface MessengerRig {
  rig: AgentRig;
  bot: FakeBotApi;
  settings: MessengerSettings;
  messenger: Messenger;
  dataDir: string;
  restart(): Promise<Messenger>;
  close(): Promise<void>;
}

export async function startMessengerRig(): Promise<MessengerRig> {
  const rig = await startAgentRig({ routes: () => [] });
  await until(() => rig.robot.feed.snapshot().presence === 'connected');
  await rig.agent.settings.update({ provider: 'openai', baseUrl: rig.fake.url, model: 'fake-model' });
  const bot = await startFakeBotApi();
  const dir = await makeTempDir('rc-messenger-');
  const build = async () => {
    const settings = createMessengerSettings({ file: join(dir.dir, 'messenger-persona.json'), log: silentLog });
    const state = createMessengerState({ file: join(dir.dir, 'messenger-state.json'), log: silentLog });
    await Promise.all([settings.load(), state.load()]);
    const messenger = createMessenger({
      settings,
      state,
      runtime: rig.agent.runtime,
      agentLog: rig.agent.agentLog,
      snapshot: async () => PHOTO,
      services: rig.robot.services,
      log: silentLog,
      pollTimeoutS: 1,
    });
    return { settings, messenger };
  };
  let current = await build();
  await current.settings.update({ enabled: true, apiBaseUrl: bot.url, token: bot.token });
  current.messenger.apply();
  return {
    rig,
    bot,
    dataDir: dir.dir,
    get settings() {
      return current.settings;
    },
    get messenger() {
      return current.messenger;
    },
    async restart() {
      await current.messenger.close();
      current = await build();
      current.messenger.apply();
      return current.messenger;
    },
    async close() {
      await current.messenger.close();
      await bot.close();
      await rig.close();
      await dir.cleanup();
    },
  };
}
