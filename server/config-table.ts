/**
 * Every ROBOT_* variable the configuration reads (server/config.ts): its parser, what a valid
 * value looks like, its command-line twin, and whether it is a credential. The value parsers are
 * strict: a value they refuse is named in the ConfigError, never silently replaced by a default.
 */
import { isAbsolute } from 'node:path';
import { CAMERA_SETTING_EXPECTS, parseCameraSetting } from './camera/camera-setting.ts';

/** Command-line flags of `npm run serve`; each has a ROBOT_* twin and wins over it. */
export interface Flags {
  robot?: string;
  sim?: boolean;
  daemon?: string;
  host?: string;
  port?: string;
  dataDir?: string;
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

export interface Entry<T> {
  parse: Parser<T>;
  /** What a valid value looks like, for the error message. */
  expect: string;
  flag?: keyof Flags;
  /** A credential: a bad value is named, never echoed (error messages reach logs and terminals). */
  secret?: boolean;
}

/** Every ROBOT_* variable, its parser and what it expects. loadConfig (config.ts) applies the defaults. */
export const TABLE = {
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

export type Parsed = { [K in ConfigKey]?: ReturnType<(typeof TABLE)[K]['parse']> };
