/**
 * End to end against the platform emulator: the 'platform' model provider streams one turn
 * through the platform client's chat stream (POST /api/chat), the platform's agent calls the
 * robot's snapshot tool client-side, the robot runs it in its own agent runtime and returns the
 * picture through POST /api/media, and the platform answers with that image. Only main/ may see
 * both the client and the runtime (docs/architecture.md, "Folders and the direction of imports").
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformClient, createMemorySecretStore, type PlatformClient } from '../platform-client/index.ts';
import { createManualScheduler } from '../platform-client/test/manual-scheduler.ts';
import { startPlatformEmulator, type PlatformEmulator } from '../platform-client/test/platform-emulator.ts';
import { createAgentLog, type AgentLog, type AgentLogRow } from '../server/agent/agent-log.ts';
import { createAgentRuntime } from '../server/agent/agent-runtime.ts';
import { createPlatformProvider } from '../server/agent/providers/platform.ts';
import { objectSchema, TOOL_IMAGES, type AgentTool } from '../server/agent/tools/types.ts';
import { silentLog } from '../server/log.ts';
import { makeTempDir } from '../server/store/testing/temp-dir.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setUp() {
  const sched = createManualScheduler();
  const emu: PlatformEmulator = await startPlatformEmulator({ now: sched.now, timers: sched });
  cleanup.push(() => emu.close());
  const owner = emu.addUser('owner');
  const device = emu.enrolDevice(owner.session, 'reachy');
  const dir = await makeTempDir();
  cleanup.push(() => dir.cleanup());
  const client: PlatformClient = createPlatformClient({
    secrets: createMemorySecretStore(),
    dataDir: dir.dir,
    log: silentLog,
    envIdentity: { platformUrl: emu.url, ...device },
    capabilities: () => ['invoke'],
    runFleetTurn: () => Promise.reject(new Error('not in this test')),
    notify: () => undefined,
    scheduler: sched,
  });
  await client.start();
  await client.disconnect();
  expect(await client.setOwnerSession(owner.session)).toMatchObject({ ok: true });
  const agentLog: AgentLog = createAgentLog({
    file: join(dir.dir, 'agent-log.jsonl'),
    broadcast: () => undefined,
    log: silentLog,
    throttleMs: 0,
  });
  await agentLog.load();
  cleanup.push(() => agentLog.flush());
  return { emu, client, agentLog };
}

const rows = (log: AgentLog): AgentLogRow[] => log.page({ n: 100 });

describe('the platform provider against the emulator', () => {
  it('streams a turn, runs the robot tool client-side and answers with the image through media', async () => {
    const { emu, client, agentLog } = await setUp();
    const seenWhileRunning: string[] = [];
    const snapshot: AgentTool = {
      name: 'snapshot',
      description: 'Take a picture with the head camera.',
      inputSchema: objectSchema({}),
      run() {
        // The text streamed before the tool call is already in the agent log.
        seenWhileRunning.push(
          ...rows(agentLog)
            .filter((r) => r.role === 'assistant')
            .map((r) => r.text),
        );
        return Promise.resolve({
          ok: true,
          width: 2,
          [TOOL_IMAGES]: [{ mediaType: 'image/jpeg', base64: JPEG.toString('base64') }],
        });
      },
    };
    emu.setChatScript(async (turn) => {
      turn.emit({ type: 'modelContentBlockDeltaEvent', reasoningDelta: 'The owner wants a picture.' });
      turn.say('Let me ', 'look.');
      const payload = (await turn.callTool('snapshot', {})) as { images: Array<{ url: string }> };
      turn.emit({ type: 'modelMessageStartEvent' });
      turn.say(`Here it is: ![snapshot](${payload.images[0]!.url})`);
    });
    const runtime = createAgentRuntime({
      model: { provider: () => createPlatformProvider(client) },
      tools: [snapshot],
      agentLog,
      latch: { engaged: () => false },
      log: silentLog,
    });

    const result = await runtime.start({
      persona: 'dashboard',
      prompt: 'show me the room',
      fleet: false,
      credential: 'token',
      limits: { overallMs: 60_000, idleMs: 30_000 },
    }).done;

    expect(result.ok).toBe(true);
    expect(seenWhileRunning).toEqual(['Let me look.']);
    const [stored] = emu.chat.results;
    const url = (stored!.payload as { images: Array<{ url: string; format: string }> }).images[0]!.url;
    expect(url).toMatch(new RegExp(`^${emu.url}/media/`));
    expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(JPEG);
    expect(result.text).toContain(`![snapshot](${url})`);
    const log = rows(agentLog);
    expect(log.map((r) => r.role)).toEqual(['user', 'reasoning', 'assistant', 'tool']);
    expect(log.find((r) => r.role === 'tool')).toMatchObject({
      tool: { name: 'snapshot', result: { ok: true, width: 2 } },
    });
    // The platform saw the robot's tool named in the system message and got no base64 back in the stream.
    expect(emu.chat.turns[0]!.messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('- snapshot:'),
    });
  });
});
