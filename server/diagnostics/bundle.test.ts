import { expect, it } from 'vitest';
import { CONFIG_KEYS, loadConfig } from '../config.ts';
import { TABLE } from '../config-table.ts';
import { createLog } from '../log.ts';
import { diagnosticsBundle } from './bundle.ts';
import { summarise } from './health-history.ts';
import { createLogRing, teeSink } from './log-ring.ts';

it('bundles versions, config, logs and health history with no secret in it', () => {
  const config = loadConfig({
    env: {
      ROBOT_TOKEN: 'owner-token-secret-123456',
      ROBOT_REG_TOKEN: 'reg-secret-1234',
      ROBOT_MODEL_PROVIDER: 'openai',
      ROBOT_MODEL_KEY: 'sk-model-secret',
      ROBOT_PLATFORM_URL: 'https://platform.example',
      ROBOT_DEVICE_ID: 'dev-1',
      ROBOT_DEVICE_TOKEN: 'device-secret-token',
    },
    home: '/home/op',
    platform: 'linux',
  });
  const ring = createLogRing(10);
  const log = createLog({ sink: teeSink(ring, () => {}) });
  log.warn('daemon slow', { authorization: 'Bearer owner-token-secret-123456' });
  const health = {
    ok: false,
    daemon: {
      reachable: true,
      presence: 'connected',
      url: 'x',
      simulated: true,
      physics: 'mockup',
      state: 'running',
      version: '1.10.0.dev0',
      version_check: {
        tested: { min: '1.10.0', max: '1.13.0' },
        in_range: true,
        warning: null,
        capabilities_known: true,
        missing: [],
      },
      loop_hz: null,
    },
    camera: { status: 'live', fps: 15 },
    last_error: null,
    last_error_at: null,
    problems: { 'stream:silent': 'x' },
    pressure: { source: 'cockpit', pid: 1, fds: 40, fd_limit: 65536, close_wait: 0, cockpit_close_wait: 0, warning: false },
    stream: { connected: true, hz: 30 },
    version: '0.1.0',
    identity: { name: 'Desk robot', kind: 'desktop', https_port: null, fingerprint: null },
  } as const;
  const bundle = diagnosticsBundle({ config, health, history: [summarise(health, new Date())], logs: ring });
  const text = JSON.stringify(bundle);
  for (const secret of ['owner-token-secret-123456', 'reg-secret-1234', 'sk-model-secret', 'device-secret-token']) {
    expect(text).not.toContain(secret);
  }
  expect(bundle).toMatchObject({ versions: { daemon: '1.10.0.dev0' }, healthHistory: [{ problems: ['stream:silent'] }] });
  expect(text).toContain('daemon slow');
  expect(text).toContain('https://platform.example');
});

it('leaves out the value of every variable the config table marks as a credential', () => {
  const secrets = CONFIG_KEYS.filter((key) => 'secret' in TABLE[key] && TABLE[key].secret);
  const env: Record<string, string> = {
    ROBOT_MODEL_PROVIDER: 'openai',
    ROBOT_PLATFORM_URL: 'https://platform.example',
    ROBOT_DEVICE_ID: 'dev-1',
  };
  for (const key of secrets) env[key] = `${key.toLowerCase()}-value-0123456789`;
  const config = loadConfig({ env, home: '/home/op', platform: 'linux' });
  const health = { daemon: { version: null } } as unknown as Parameters<typeof diagnosticsBundle>[0]['health'];
  const text = JSON.stringify(diagnosticsBundle({ config, health, history: [], logs: createLogRing(10) }));
  expect(secrets).toContain('ROBOT_PLATFORM_SESSION_TOKEN');
  for (const key of secrets) expect(text, key).not.toContain(env[key]);
});

it("redacts bearer values in an app's log lines, five levels down in the bundle", () => {
  const config = loadConfig({ env: {}, home: '/home/op', platform: 'linux' });
  const health = { daemon: { version: null } } as unknown as Parameters<typeof diagnosticsBundle>[0]['health'];
  const line = { time: null, level: 'info', text: 'GET /models Authorization: Bearer app-secret-123456' };
  const extras = { apps: { logs: [{ app: 'hello_wave', available: true, lines: [line] }] } };
  const text = JSON.stringify(diagnosticsBundle({ config, health, history: [], logs: createLogRing(10), extras }));
  expect(text).toContain('Authorization: Bearer [redacted]');
  expect(text).not.toContain('app-secret-123456');
});

it('leaves out the user:password a URL setting was given with, in the config and in log lines', () => {
  const env = {
    ROBOT_MODEL_BASE_URL: 'https://alice:model-pass-42@llm.example/v1',
    ROBOT_ROVER_URL: 'http://rover:rover-pass-42@192.168.1.9:8080',
  };
  const config = loadConfig({ env, home: '/home/op', platform: 'linux' });
  const health = { daemon: { version: null } } as unknown as Parameters<typeof diagnosticsBundle>[0]['health'];
  const logs = createLogRing(10);
  logs.push({ time: 't', level: 'warn', scope: 'rover', msg: 'refused http://rover:rover-pass-42@192.168.1.9:8080/drive' });
  const text = JSON.stringify(diagnosticsBundle({ config, health, history: [], logs }));
  for (const secret of ['model-pass-42', 'rover-pass-42']) expect(text, secret).not.toContain(secret);
  expect(text).toContain('http://[redacted]@192.168.1.9:8080');
  expect(text).toContain('https://[redacted]@llm.example/v1');
});
