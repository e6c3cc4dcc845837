import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const base = { env: {}, home: '/home/op', platform: 'linux' as const };

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({
      wsHz: 15,
      rateLimit: 5,
      trackAutostart: true,
      sessionTtlSeconds: 43200,
      loopbackReads: true,
      host: '0.0.0.0',
      httpPort: 8097,
      httpsPort: 8098,
      bPort: 8080,
      bTls: true,
      daemonUrl: 'http://127.0.0.1:8000',
      daemonExplicit: false,
      dataDir: '/home/op/.config/robot-cockpit',
      robot: 'desktop',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('lets flags win over the environment, and the environment over settings.json', () => {
    const c = loadConfig({
      ...base,
      env: { ROBOT_HTTP_PORT: '9000', ROBOT_WS_HZ: '20' },
      flags: { port: '9100' },
      settings: { ROBOT_WS_HZ: 30, ROBOT_RATE_LIMIT: 7 },
    });
    expect(c.httpPort).toBe(9100);
    expect(c.wsHz).toBe(20);
    expect(c.rateLimit).toBe(7);
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ ...base, env: { ROBOT_WS_HZ: '0', ROBOT_LOOPBACK_READS: 'maybe', ROBOT_DAEMON_URL: 'ftp://x' } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/ROBOT_WS_HZ/);
    expect(problems).toMatch(/ROBOT_LOOPBACK_READS/);
    expect(problems).toMatch(/ROBOT_DAEMON_URL/);
    expect((error as ConfigError).problems).toHaveLength(3);
  });

  it('names what looks like a setting and is not one, and starts anyway', () => {
    const c = loadConfig({
      ...base,
      env: { ROBOT_PORT: '9000', ROBOT_HTTP_PORT: '9001', ROBOT_REAL_DAEMON_CACHE: '/cache', PATH: '/bin' },
      settings: { ROBOT_WS_HZ: 20, ROBOT_WSHZ: 30, theme: 'dark' },
    });
    expect(c.httpPort).toBe(9001);
    expect(c.ignored).toEqual(['ROBOT_PORT', 'ROBOT_WSHZ in settings.json', 'theme in settings.json']);
    expect(loadConfig(base).ignored).toEqual([]);
  });

  it("keeps the restart loop's spare process unless ROBOT_SPARE=0", () => {
    expect(loadConfig(base).spare).toBe(true);
    expect(loadConfig({ ...base, env: { ROBOT_SPARE: '0' } }).spare).toBe(false);
    expect(loadConfig({ ...base, settings: { ROBOT_SPARE: 0 } }).spare).toBe(false);
    expect(() => loadConfig({ ...base, env: { ROBOT_SPARE: 'maybe' } })).toThrow(/ROBOT_SPARE: expected 1 or 0/);
  });

  it('names the flag when a flag is wrong', () => {
    expect(() => loadConfig({ ...base, flags: { port: 'eighty' } })).toThrow(/--port/);
    expect(() => loadConfig({ ...base, flags: { robot: 'hexapod' } })).toThrow(/--robot/);
    expect(() => loadConfig({ ...base, flags: { dataDir: '' } })).toThrow(/--data-dir/);
  });

  it('rejects settings.json values by name too', () => {
    expect(() => loadConfig({ ...base, settings: { ROBOT_SESSION_TTL: 5 } })).toThrow(
      /ROBOT_SESSION_TTL in settings.json/,
    );
  });

  it('understands --sim and refuses it together with --daemon', () => {
    expect(loadConfig({ ...base, flags: { sim: true } })).toMatchObject({ daemonUrl: 'sim', daemonExplicit: true });
    expect(() => loadConfig({ ...base, flags: { sim: true, daemon: 'http://127.0.0.1:8000' } })).toThrow(/--sim/);
  });

  it('normalises URLs and accepts 0 to turn HTTPS off', () => {
    const c = loadConfig({ ...base, env: { ROBOT_DAEMON_URL: 'http://robot.local:8000/', ROBOT_HTTPS_PORT: '0' } });
    expect(c.daemonUrl).toBe('http://robot.local:8000');
    expect(c.daemonExplicit).toBe(true);
    expect(c.httpsPort).toBe(0);
  });

  it('uses the OS app-data folder per platform', () => {
    expect(loadConfig({ ...base, platform: 'darwin' }).dataDir).toBe(
      '/home/op/Library/Application Support/Robot Cockpit',
    );
    expect(loadConfig({ ...base, env: { XDG_CONFIG_HOME: '/x' } }).dataDir).toBe('/x/robot-cockpit');
  });
  describe('platform identity (ROBOT_PLATFORM_URL, ROBOT_DEVICE_ID, ROBOT_DEVICE_TOKEN)', () => {
    const identity = {
      ROBOT_PLATFORM_URL: 'https://platform.example/some/path',
      ROBOT_DEVICE_ID: '3f2c9a1e-77aa-4c1b-9d3e-0123456789ab',
      ROBOT_DEVICE_TOKEN: 'tind_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
    };

    it('is undefined when none is set, and the origin with id and token when all three are', () => {
      expect(loadConfig(base).platform).toBeUndefined();
      const c = loadConfig({ ...base, env: identity });
      expect(c.platform).toEqual({
        platformUrl: 'https://platform.example',
        deviceId: identity.ROBOT_DEVICE_ID,
        token: identity.ROBOT_DEVICE_TOKEN,
      });
      expect(Object.isFrozen(c.platform)).toBe(true);
    });

    it('accepts plain http only on a loopback host', () => {
      for (const url of ['http://127.0.0.1:8787', 'http://localhost:3000', 'http://[::1]:3000']) {
        expect(loadConfig({ ...base, env: { ...identity, ROBOT_PLATFORM_URL: url } }).platform?.platformUrl).toBe(
          new URL(url).origin,
        );
      }
      for (const url of [
        'http://platform.example',
        'http://192.168.1.20:3000',
        'ftp://x',
        'https://u:p@platform.example',
      ]) {
        expect(() => loadConfig({ ...base, env: { ...identity, ROBOT_PLATFORM_URL: url } })).toThrow(
          /ROBOT_PLATFORM_URL/,
        );
      }
    });

    it('refuses a partial set, naming the missing variables', () => {
      const { ROBOT_DEVICE_TOKEN: _token, ...partial } = identity;
      expect(() => loadConfig({ ...base, env: partial })).toThrow(/go together: missing ROBOT_DEVICE_TOKEN$/m);
      expect(() => loadConfig({ ...base, settings: { ROBOT_DEVICE_ID: 'abc' } })).toThrow(
        /missing ROBOT_PLATFORM_URL, ROBOT_DEVICE_TOKEN/,
      );
    });

    it('names a malformed id or token without echoing the token', () => {
      let error: unknown;
      try {
        loadConfig({ ...base, env: { ...identity, ROBOT_DEVICE_ID: 'has space', ROBOT_DEVICE_TOKEN: 'tind_ secret' } });
      } catch (err) {
        error = err;
      }
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(2);
      expect(problems.join('\n')).toMatch(/ROBOT_DEVICE_ID: .*got "has space"/);
      expect(problems.join('\n')).toMatch(/ROBOT_DEVICE_TOKEN: expected/);
      expect(problems.join('\n')).not.toContain('secret');
    });

    it('takes the owner session token only with the environment identity, never echoing it', () => {
      const session = 'tsess_0123456789abcdef';
      expect(
        loadConfig({ ...base, env: { ...identity, ROBOT_PLATFORM_SESSION_TOKEN: session } }).platformSessionToken,
      ).toBe(session);
      expect(loadConfig({ ...base, env: identity }).platformSessionToken).toBeUndefined();
      expect(() => loadConfig({ ...base, env: { ROBOT_PLATFORM_SESSION_TOKEN: session } })).toThrow(
        /ROBOT_PLATFORM_SESSION_TOKEN needs ROBOT_PLATFORM_URL/,
      );
      expect(() => loadConfig({ ...base, env: { ...identity, ROBOT_PLATFORM_SESSION_TOKEN: 'has space x' } })).toThrow(
        /ROBOT_PLATFORM_SESSION_TOKEN: expected [^"]*$/m,
      );
    });
  });

  it('takes ROBOT_FIRMWARE_HOOK as an absolute path only', () => {
    expect(loadConfig({ ...base, env: { ROBOT_FIRMWARE_HOOK: '/usr/local/bin/install-bundle' } }).firmwareHook).toBe(
      '/usr/local/bin/install-bundle',
    );
    expect(loadConfig(base).firmwareHook).toBeUndefined();
    for (const bad of ['install-bundle', './x', '/x\ny'])
      expect(() => loadConfig({ ...base, env: { ROBOT_FIRMWARE_HOOK: bad } })).toThrow(/ROBOT_FIRMWARE_HOOK/);
  });

  it('takes ROBOT_ROVER_URL as an http(s) URL for the wheeled server, the simulated base otherwise', () => {
    expect(loadConfig(base).roverUrl).toBeUndefined();
    expect(loadConfig({ ...base, env: { ROBOT_ROVER_URL: 'http://127.0.0.1:8000/' } }).roverUrl).toBe(
      'http://127.0.0.1:8000',
    );
    expect(() => loadConfig({ ...base, env: { ROBOT_ROVER_URL: 'rover.local' } })).toThrow(/ROBOT_ROVER_URL/);
  });
});
