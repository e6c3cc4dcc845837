/**
 * The one configuration object. Built once at start from flags, then the environment, then
 * `<data dir>/settings.json`, then defaults (docs/architecture.md, "Configuration and persistence"). Nothing else reads
 * process.env: every part receives the slice it needs.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import {
  CAMERA_SETTING_EXPECTS,
  DEFAULT_CAMERA_SETTING,
  parseCameraSetting,
  type CameraSetting,
} from './camera/camera-setting.ts';
import type { LogLevel } from './log.ts';

export type RobotKind = 'desktop' | 'wheeled' | 'both';

export interface Config {
  /** Owner bearer token; undefined until the data dir has one (main/ generates it). */
  readonly token: string | undefined;
  readonly regToken: string | undefined;
  readonly wsHz: number;
  readonly rateLimit: number;
  readonly trackAutostart: boolean;
  readonly sessionTtlSeconds: number;
  readonly loopbackReads: boolean;
  readonly host: string;
  readonly httpPort: number;
  /** 0 turns the HTTPS listener off. */
  readonly httpsPort: number;
  readonly bPort: number;
  readonly bTls: boolean;
  /** A daemon base URL, or 'sim' for the built-in simulator. */
  readonly daemonUrl: string;
  /** True when the daemon was named by a flag or variable rather than defaulted. */
  readonly daemonExplicit: boolean;
  readonly dataDir: string;
  readonly rpId: string | undefined;
  readonly origin: string | undefined;
  readonly robot: RobotKind;
  readonly thinkerIntervalSeconds: number;
  readonly logLevel: LogLevel;
  /** Where frames come from: the daemon's WebRTC producer, a local capture device, or off. */
  readonly camera: CameraSetting;
  /** Headless model settings; when set they override the dashboard's. */
  readonly model: { provider?: string; baseUrl?: string; model?: string; key?: string };
  /** The robot's platform identity from ROBOT_PLATFORM_URL / _DEVICE_ID / _DEVICE_TOKEN (all or none). */
  readonly platform: PlatformIdentity | undefined;
  /** The owner's session or command-line token on that platform, for use_device (ROBOT_PLATFORM_SESSION_TOKEN). */
  readonly platformSessionToken: string | undefined;
  /** An executable that installs a staged firmware bundle: `<hook> <bundle dir> <version>`. */
  readonly firmwareHook: string | undefined;
  /** The wheeled server's rover SDK (ROBOT_ROVER_URL); undefined drives the simulated base. */
  readonly roverUrl: string | undefined;
  /** The black box recorder's ring bounds and camera rate (server/recorder/README-recorder.md). */
  readonly recorder: RecorderConfig;
  /** LAN discovery over mDNS (ROBOT_MDNS); never runs while bound to loopback only (server/discovery). */
  readonly mdns: boolean;
  /**
   * The restart loop keeps a loaded spare server process beside the running one (ROBOT_SPARE):
   * a faster restart after a crash for one idle process's memory (main/supervisor.ts).
   */
  readonly spare: boolean;
}

export interface RecorderConfig {
  /** 0 turns the recorder off (kept recordings stay listed and downloadable). */
  readonly maxMinutes: number;
  readonly maxBytes: number;
  /** Camera frames per second in recordings; 0 records no frames. */
  readonly cameraFps: number;
}

/** The recorder's defaults, also shown in the README's configuration table (a test compares them). */
export const RECORDER_DEFAULTS: RecorderConfig = Object.freeze({ maxMinutes: 10, maxBytes: 500 * 1024 * 1024, cameraFps: 5 });

/** A device identity on the hosted platform, as the platform client's enrolment takes it. */
export interface PlatformIdentity {
  readonly platformUrl: string;
  readonly deviceId: string;
  readonly token: string;
}


/** Command-line flags of `npm run serve`; each has a ROBOT_* twin and wins over it. */
export interface Flags {
  robot?: string;
  sim?: boolean;
  daemon?: string;
  host?: string;
  port?: string;
  dataDir?: string;
}

export interface ConfigSources {
  env: Readonly<Record<string, string | undefined>>;
  flags?: Flags;
  /** Parsed `<data dir>/settings.json`, keyed by variable name. */
  settings?: Readonly<Record<string, unknown>>;
  platform?: NodeJS.Platform;
  home?: string;
}

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Parser<T> = (raw: string) => T | undefined;

const int =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) return undefined;
    const n = Number(raw);
    return n >= min && n <= max ? n : undefined;
  };

const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return undefined;
};

const text =
  (minLength = 1, maxLength = 512): Parser<string> =>
  (raw) =>
    raw.length >= minLength && raw.length <= maxLength ? raw : undefined;

const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) =>
    (values as string[]).includes(raw) ? (raw as T) : undefined;

const daemonUrl: Parser<string> = (raw) => {
  if (raw === 'sim') return raw;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
};

/** A base URL that keeps its path (`http://host:11434/v1`), unlike an origin. */
const baseUrl: Parser<string> = (raw) => {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? raw.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
};

const matching =
  (pattern: RegExp): Parser<string> =>
  (raw) =>
    pattern.test(raw) ? raw : undefined;

const PRINTABLE_TOKEN = /^[\x21-\x7e]{8,512}$/;

/** An absolute path without control characters (it reaches a spawn's argv, never a shell). */
const absolutePath: Parser<string> = (raw) =>
  isAbsolute(raw) && raw.length <= 1024 && ![...raw].some((c) => c < ' ' || c === '\x7f') ? raw : undefined;

/** True for localhost, 127.0.0.0/8 and ::1: hosts that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The platform is reached over https only; plain http only on a loopback host. */
const platformUrl: Parser<string> = (raw) => {
  try {
    const url = new URL(raw);
    if (url.username || url.password) return undefined;
    if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url.origin;
    return undefined;
  } catch {
    return undefined;
  }
};

const origin: Parser<string> = (raw) => {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

interface Entry<T> {
  parse: Parser<T>;
  /** What a valid value looks like, for the error message. */
  expect: string;
  flag?: keyof Flags;
  /** A credential: a bad value is named, never echoed (error messages reach logs and terminals). */
  secret?: boolean;
}

/** Every ROBOT_* variable, its parser and what it expects. Defaults are applied below. */
const TABLE = {
  ROBOT_TOKEN: { parse: text(16, 256), expect: 'a string of 16-256 characters', secret: true },
  ROBOT_REG_TOKEN: { parse: text(8, 256), expect: 'a string of 8-256 characters', secret: true },
  ROBOT_WS_HZ: { parse: int(1, 50), expect: 'an integer 1-50 (frames per second)' },
  ROBOT_RATE_LIMIT: { parse: int(1, 1000), expect: 'an integer 1-1000 (requests per second)' },
  ROBOT_TRACK_AUTOSTART: { parse: bool, expect: '1 or 0' },
  ROBOT_SESSION_TTL: { parse: int(60, 30 * 86400), expect: 'an integer 60-2592000 (seconds)' },
  ROBOT_LOOPBACK_READS: { parse: bool, expect: '1 or 0' },
  ROBOT_HOST: { parse: text(1, 255), expect: 'an address to bind', flag: 'host' },
  ROBOT_HTTP_PORT: { parse: int(0, 65535), expect: 'a port 0-65535', flag: 'port' },
  ROBOT_HTTPS_PORT: { parse: int(0, 65535), expect: 'a port 0-65535 (0 turns it off)' },
  ROBOT_B_PORT: { parse: int(0, 65535), expect: 'a port 0-65535' },
  ROBOT_B_TLS: { parse: bool, expect: '1 or 0' },
  ROBOT_DAEMON_URL: { parse: daemonUrl, expect: 'an http(s) URL or "sim"', flag: 'daemon' },
  ROBOT_DATA_DIR: { parse: text(1, 4096), expect: 'a folder path', flag: 'dataDir' },
  ROBOT_RP_ID: { parse: text(1, 253), expect: 'a host name' },
  ROBOT_ORIGIN: { parse: origin, expect: 'an origin such as https://robot.local:8098' },
  ROBOT_ROBOT: {
    parse: oneOf('desktop', 'wheeled', 'both'),
    expect: 'desktop, wheeled or both',
    flag: 'robot',
  },
  ROBOT_THINKER_INTERVAL: { parse: int(5, 3600), expect: 'an integer 5-3600 (seconds)' },
  ROBOT_LOG_LEVEL: { parse: oneOf('debug', 'info', 'warn', 'error'), expect: 'debug, info, warn or error' },
  ROBOT_CAMERA: { parse: parseCameraSetting, expect: CAMERA_SETTING_EXPECTS },
  ROBOT_MODEL_PROVIDER: {
    parse: oneOf('none', 'openai', 'anthropic', 'platform'),
    expect: 'none, openai, anthropic or platform',
  },
  ROBOT_MODEL_BASE_URL: { parse: baseUrl, expect: 'an http(s) URL such as http://127.0.0.1:11434/v1' },
  ROBOT_MODEL: { parse: text(1, 200), expect: 'a model name of 1-200 characters' },
  ROBOT_MODEL_KEY: { parse: text(1, 1000), expect: 'an API key of 1-1000 characters', secret: true },
  ROBOT_PLATFORM_URL: {
    parse: platformUrl,
    expect: 'an https URL of the platform (plain http only on a loopback host such as 127.0.0.1)',
  },
  // The platform client's own checks (platform-client/identity.ts, limits.ts TOKEN_PATTERN; server/
  // may not import it): URL-safe ids, printable tokens.
  ROBOT_DEVICE_ID: {
    parse: matching(/^[A-Za-z0-9_-]{1,128}$/),
    expect: 'a device id of 1-128 letters, digits, _ or -',
  },
  ROBOT_DEVICE_TOKEN: {
    parse: matching(PRINTABLE_TOKEN),
    expect: 'a device token of 8-512 printable characters without spaces',
    secret: true,
  },
  ROBOT_PLATFORM_SESSION_TOKEN: {
    parse: matching(PRINTABLE_TOKEN),
    expect: 'a session or command-line token of 8-512 printable characters without spaces',
    secret: true,
  },
  ROBOT_FIRMWARE_HOOK: { parse: absolutePath, expect: 'the absolute path of an executable' },
  ROBOT_ROVER_URL: { parse: baseUrl, expect: 'the http(s) URL of the rover SDK, e.g. http://127.0.0.1:8000' },
  ROBOT_RECORD_MINUTES: { parse: int(0, 1440), expect: 'an integer 0-1440 (minutes the recorder keeps; 0 turns it off)' },
  ROBOT_RECORD_MB: { parse: int(10, 1_000_000), expect: 'an integer 10-1000000 (megabytes the recorder may use)' },
  ROBOT_RECORD_FPS: { parse: int(0, 15), expect: 'an integer 0-15 (camera frames per second recorded; 0 records none)' },
  ROBOT_MDNS: { parse: bool, expect: '1 or 0' },
  ROBOT_SPARE: { parse: bool, expect: '1 or 0' },
} as const satisfies Record<string, Entry<unknown>>;

export type ConfigKey = keyof typeof TABLE;
export const CONFIG_KEYS = Object.freeze(Object.keys(TABLE) as ConfigKey[]);

type Parsed = { [K in ConfigKey]?: ReturnType<(typeof TABLE)[K]['parse']> };

/** The OS app-data folder, where credentials and settings live by default. */
export function defaultDataDir(platform: NodeJS.Platform, home: string, env: ConfigSources['env']): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Robot Cockpit');
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'Robot Cockpit');
  return join(env['XDG_CONFIG_HOME'] ?? join(home, '.config'), 'robot-cockpit');
}

/**
 * Builds and freezes the config, or throws a ConfigError naming every bad variable at once.
 */
export function loadConfig(sources: ConfigSources): Config {
  const { env, flags = {}, settings = {} } = sources;
  const problems: string[] = [];
  const parsed: Parsed = {};
  const given = new Set<ConfigKey>();

  for (const key of CONFIG_KEYS) {
    const entry: Entry<unknown> = TABLE[key];
    const flagValue = entry.flag ? flags[entry.flag] : undefined;
    const [raw, origin] =
      flagValue !== undefined
        ? [String(flagValue), `--${kebab(entry.flag as string)}`]
        : env[key] !== undefined && env[key] !== ''
          ? [env[key] as string, key]
          : settings[key] !== undefined
            ? [String(settings[key]), `${key} in settings.json`]
            : [undefined, key];
    if (raw === undefined) continue;
    given.add(key);
    const value = entry.parse(raw);
    const shown = entry.secret ? '' : `, got ${JSON.stringify(raw)}`;
    if (value === undefined) problems.push(`${origin}: expected ${entry.expect}${shown}`);
    else (parsed as Record<string, unknown>)[key] = value;
  }
  if (flags.sim && flags.daemon !== undefined) problems.push('--sim and --daemon cannot be used together');
  const platformProblem = partialPlatform(given);
  if (platformProblem) problems.push(platformProblem);
  // The session token is sent only to the platform the environment names, never to a pasted one.
  if (given.has('ROBOT_PLATFORM_SESSION_TOKEN') && !given.has('ROBOT_PLATFORM_URL'))
    problems.push('ROBOT_PLATFORM_SESSION_TOKEN needs ROBOT_PLATFORM_URL, ROBOT_DEVICE_ID and ROBOT_DEVICE_TOKEN');
  if (problems.length > 0) throw new ConfigError(problems);

  const home = sources.home ?? homedir();
  const platform = sources.platform ?? process.platform;
  const explicitDaemon = flags.sim === true || parsed.ROBOT_DAEMON_URL !== undefined;
  return Object.freeze({
    token: parsed.ROBOT_TOKEN,
    regToken: parsed.ROBOT_REG_TOKEN,
    wsHz: parsed.ROBOT_WS_HZ ?? 15,
    rateLimit: parsed.ROBOT_RATE_LIMIT ?? 5,
    trackAutostart: parsed.ROBOT_TRACK_AUTOSTART ?? true,
    sessionTtlSeconds: parsed.ROBOT_SESSION_TTL ?? 43200,
    loopbackReads: parsed.ROBOT_LOOPBACK_READS ?? true,
    host: parsed.ROBOT_HOST ?? '0.0.0.0',
    httpPort: parsed.ROBOT_HTTP_PORT ?? 8097,
    httpsPort: parsed.ROBOT_HTTPS_PORT ?? 8098,
    bPort: parsed.ROBOT_B_PORT ?? 8080,
    bTls: parsed.ROBOT_B_TLS ?? true,
    daemonUrl: flags.sim ? 'sim' : (parsed.ROBOT_DAEMON_URL ?? 'http://127.0.0.1:8000'),
    daemonExplicit: explicitDaemon,
    dataDir: parsed.ROBOT_DATA_DIR ?? defaultDataDir(platform, home, env),
    rpId: parsed.ROBOT_RP_ID,
    origin: parsed.ROBOT_ORIGIN,
    robot: parsed.ROBOT_ROBOT ?? 'desktop',
    thinkerIntervalSeconds: parsed.ROBOT_THINKER_INTERVAL ?? 30,
    logLevel: parsed.ROBOT_LOG_LEVEL ?? 'info',
    camera: parsed.ROBOT_CAMERA ?? DEFAULT_CAMERA_SETTING,
    model: Object.freeze(
      dropUndefined({
        provider: parsed.ROBOT_MODEL_PROVIDER,
        baseUrl: parsed.ROBOT_MODEL_BASE_URL,
        model: parsed.ROBOT_MODEL,
        key: parsed.ROBOT_MODEL_KEY,
      }),
    ),
    platform: platformIdentity(parsed),
    platformSessionToken: parsed.ROBOT_PLATFORM_SESSION_TOKEN,
    firmwareHook: parsed.ROBOT_FIRMWARE_HOOK,
    roverUrl: parsed.ROBOT_ROVER_URL,
    recorder: Object.freeze({
      maxMinutes: parsed.ROBOT_RECORD_MINUTES ?? RECORDER_DEFAULTS.maxMinutes,
      maxBytes: parsed.ROBOT_RECORD_MB !== undefined ? parsed.ROBOT_RECORD_MB * 1024 * 1024 : RECORDER_DEFAULTS.maxBytes,
      cameraFps: parsed.ROBOT_RECORD_FPS ?? RECORDER_DEFAULTS.cameraFps,
    }),
    mdns: parsed.ROBOT_MDNS ?? true,
    spare: parsed.ROBOT_SPARE ?? true,
  });
}

const PLATFORM_KEYS = ['ROBOT_PLATFORM_URL', 'ROBOT_DEVICE_ID', 'ROBOT_DEVICE_TOKEN'] as const;

/** The three platform variables make one identity: a partial set is a mistake, never a default. */
function partialPlatform(given: ReadonlySet<ConfigKey>): string | undefined {
  const missing = PLATFORM_KEYS.filter((key) => !given.has(key));
  if (missing.length === 0 || missing.length === PLATFORM_KEYS.length) return undefined;
  return `${PLATFORM_KEYS.join(', ')} go together: missing ${missing.join(', ')}`;
}

function platformIdentity(parsed: Parsed): PlatformIdentity | undefined {
  const { ROBOT_PLATFORM_URL: platformUrl, ROBOT_DEVICE_ID: deviceId, ROBOT_DEVICE_TOKEN: token } = parsed;
  if (platformUrl === undefined || deviceId === undefined || token === undefined) return undefined;
  return Object.freeze({ platformUrl, deviceId, token });
}

function dropUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
