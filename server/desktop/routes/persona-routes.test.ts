/**
 * The personas' console routes over real HTTP: the view never carries a secret, settings are
 * validated at the edge (400 naming the field), and the messenger's allowed chats are added
 * and removed, turning pairing mode off and on again, against the fake bot API.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentRig, type AgentRig } from '../../agent/testing/agent-rig.ts';
import { errorHandler } from '../../http/error-handler.ts';
import { silentLog } from '../../log.ts';
import { until } from '../../motion/testing/rig.ts';
import { startFakeBotApi, type FakeBotApi } from '../../personas/messenger/testing/fake-bot-api.ts';
import { createPersonas, type Personas } from '../../personas/personas.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { personaRoutes } from './persona-routes.ts';

let rig: AgentRig;
let bot: FakeBotApi;
let personas: Personas;
let server: Server;
let base: string;
let dir: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  rig = await startAgentRig({ routes: () => [] });
  bot = await startFakeBotApi();
  personas = createPersonas({
    dataDir: (dir = await makeTempDir('rc-personas-')).dir,
    agent: rig.agent,
    control: rig.control,
    holds: { take() {}, release() {} },
    snapshot: async () => undefined,
    services: rig.robot.services,
    robot: rig.robot,
    recentEvents: () => [],
    thinker: { intervalSeconds: 3600 },
    log: silentLog,
    platform: 'linux',
  });
  await personas.start();
  // The thinker has its own tests (server/personas/thinker/); here it must not act on its own.
  personas.thinker.stop();
  const koa = new Koa();
  koa.use(errorHandler(silentLog));
  const router = new Router();
  for (const r of personaRoutes(personas))
    router[r.method.toLowerCase() as 'get' | 'put' | 'post' | 'delete'](r.path, r.handler!);
  koa.use(router.routes());
  server = koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await personas.stop();
  await new Promise((resolve) => server.close(resolve));
  await bot.close();
  await rig.close();
  await dir.cleanup();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, text: await res.text() };
}

describe('persona routes', () => {
  it('show both personas off by default, with their status', async () => {
    const res = await call('GET', '/api/console/personas');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      voice: {
        settings: { enabled: false, source: 'device', muted: false, transcription: { hasKey: false } },
        status: { state: 'off' },
      },
      messenger: {
        settings: { enabled: false, apiBaseUrl: 'https://api.telegram.org', hasToken: false, allowedChats: [] },
        status: { state: 'off', pairing: true, seenChats: [] },
      },
    });
  });

  it('save the voice settings and never answer the key', async () => {
    const res = await call('PUT', '/api/console/personas/voice', {
      muted: true,
      transcription: { baseUrl: 'http://127.0.0.1:9/v1', model: 'small', key: 'sk-voice-secret' },
    });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('sk-voice-secret');
    expect(JSON.parse(res.text)).toMatchObject({
      settings: { muted: true, transcription: { model: 'small', hasKey: true } },
      status: { state: 'off' },
    });
    expect((await call('GET', '/api/console/personas')).text).not.toContain('sk-voice-secret');
    const bad = await call('PUT', '/api/console/personas/voice', { source: 'robot' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({ error: expect.stringMatching(/^source must be/), code: 'BAD_REQUEST' });
  });

  it('start the messenger with a token it never shows, and allow and remove chats', async () => {
    const res = await call('PUT', '/api/console/personas/messenger', {
      enabled: true,
      apiBaseUrl: bot.url,
      token: bot.token,
    });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(bot.token);
    await until(() => personas.view().messenger.status.state === 'pairing');
    bot.userSends({ id: 777, first_name: 'Grace' }, 'hello?');
    await until(
      async () => JSON.parse((await call('GET', '/api/console/personas')).text).messenger.status.seenChats.length === 1,
    );

    const allowed = await call('POST', '/api/console/personas/messenger/chats', { chatId: 777 });
    expect(JSON.parse(allowed.text)).toMatchObject({
      settings: { allowedChats: [777] },
      status: { pairing: false, state: 'listening' },
    });
    expect((await call('POST', '/api/console/personas/messenger/chats', { chatId: 'x' })).status).toBe(400);
    expect((await call('POST', '/api/console/personas/messenger/chats', { chat: 1 })).status).toBe(400);

    const removed = await call('DELETE', '/api/console/personas/messenger/chats/777');
    expect(JSON.parse(removed.text)).toMatchObject({
      settings: { allowedChats: [] },
      status: { pairing: true, state: 'pairing' },
    });
    expect((await call('DELETE', '/api/console/personas/messenger/chats/abc')).status).toBe(400);
  });
});
