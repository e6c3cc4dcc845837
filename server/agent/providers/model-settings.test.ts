import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { silentLog } from '../../log.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { createModelSettings, type ModelEnv } from './model-settings.ts';
import { startFakeAnthropic } from './testing/fake-anthropic.ts';
import type { FakeModelServer } from './testing/fake-model-server.ts';
import { startFakeOpenAi } from './testing/fake-openai.ts';

let dir: { dir: string; cleanup: () => Promise<void> };
let fake: (FakeModelServer & { url: string }) | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await dir.cleanup();
});

const file = () => join(dir.dir, 'agent-model.json');
async function settings(env?: ModelEnv, testTimeoutMs?: number) {
  const s = createModelSettings({
    file: file(),
    log: silentLog,
    ...(env ? { env } : {}),
    ...(testTimeoutMs ? { testTimeoutMs } : {}),
  });
  await s.load();
  return s;
}

describe('model settings', () => {
  it('start unconfigured: the provider is a 503 "no model configured"', async () => {
    const s = await settings();
    expect(s.view()).toMatchObject({ provider: 'none', hasKey: false, source: 'dashboard', editable: true });
    expect(s.configured()).toBe(false);
    expect(() => s.provider()).toThrow(
      expect.objectContaining({ status: 503, code: 'NOT_CONFIGURED', message: 'no model configured' }),
    );
  });

  it('store the key server-side in a 0600 file and show only hasKey', async () => {
    const s = await settings();
    const view = await s.update({ provider: 'anthropic', model: 'claude-sonnet-4-5', key: 'sk-ant-secret' });
    expect(view).toMatchObject({ provider: 'anthropic', hasKey: true });
    expect(JSON.stringify(view)).not.toContain('sk-ant-secret');
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(await readFile(file(), 'utf8')).toContain('sk-ant-secret');
    const reloaded = await settings();
    expect(reloaded.view()).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', hasKey: true });
    expect(reloaded.provider().kind).toBe('anthropic');
  });

  it('keep an omitted key, clear an empty one, and drop it when the target server changes', async () => {
    const s = await settings();
    await s.update({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', key: 'sk-1' });
    expect(
      (await s.update({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1' })).hasKey,
    ).toBe(true);
    expect(
      (await s.update({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' })).hasKey,
    ).toBe(false);
    await s.update({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', key: 'k' });
    expect(
      (await s.update({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', key: '' })).hasKey,
    ).toBe(false);
  });

  it.each([
    [{ provider: 'gpt' }, /provider must be one of/],
    [{ provider: 'openai' }, /model is required/],
    [{ provider: 'openai', model: 'm', baseUrl: 'ftp://x' }, /baseUrl must be an http\(s\) URL/],
    [{ provider: 'openai', model: 'm', baseUrl: 'http://u:p@host/v1' }, /must not carry credentials/],
    [{ provider: 'openai', model: 'm', key: 42 }, /key must be a string/],
    [{ provider: 'openai', model: 'm', apiKey: 'x' }, /unknown field apiKey/],
  ])('refuse %j with a 400 naming the field', async (body, message) => {
    const s = await settings();
    await expect(s.update(body)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(message) });
  });

  it('let ROBOT_MODEL_* win and make the dashboard read-only', async () => {
    const s = await settings({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
    expect(s.view()).toMatchObject({
      provider: 'openai',
      model: 'llama3.2',
      source: 'env',
      editable: false,
      hasKey: false,
    });
    await expect(s.update({ provider: 'none' })).rejects.toBeInstanceOf(AppError);
    await expect(s.update({ provider: 'none' })).rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(s.provider().model).toBe('llama3.2');
  });

  it('refuse an invalid env override at start, naming the variables', async () => {
    await expect(settings({ provider: 'openai' })).rejects.toThrow(
      /ROBOT_MODEL_\* settings are invalid: model is required/,
    );
  });

  it('explain why a chosen provider cannot run', async () => {
    const s = await settings();
    expect((await s.update({ provider: 'platform' })).problem).toMatch(/enrolled/);
    expect(() => s.provider()).toThrow(/no model configured \(the platform provider needs/);
  });
});

describe('test connection', () => {
  it('answers ok with the model and the latency', async () => {
    fake = await startFakeOpenAi({ key: 'sk-t' });
    const s = await settings();
    const result = await s.test({
      provider: 'openai',
      baseUrl: fake.url,
      model: 'gpt-test',
      key: 'sk-t',
    });
    expect(result).toEqual({ ok: true, model: 'gpt-test', latencyMs: expect.any(Number) });
    expect(s.view().provider).toBe('none');
  });

  it('tests the saved settings with the stored key when the body is empty', async () => {
    fake = await startFakeAnthropic({ key: 'sk-ant-t' });
    const s = await settings();
    await s.update({
      provider: 'anthropic',
      baseUrl: fake.url,
      model: 'claude-test',
      key: 'sk-ant-t',
    });
    expect(await s.test({})).toMatchObject({ ok: true, model: 'claude-test' });
  });

  it('answers ok false with the reason: a wrong key, or no answer in time', async () => {
    fake = await startFakeOpenAi({ key: 'sk-right' });
    const s = await settings(undefined, 300);
    const url = fake.url;
    expect(await s.test({ provider: 'openai', baseUrl: url, model: 'm', key: 'sk-wrong' })).toEqual({
      ok: false,
      error: 'the model server answered 401: Incorrect API key provided.',
    });
    fake.setScript(() => ({ kind: 'hang' }));
    expect(await s.test({ provider: 'openai', baseUrl: url, model: 'm', key: 'sk-right' })).toEqual({
      ok: false,
      error: 'no answer within 0.3 s',
    });
  });
});
