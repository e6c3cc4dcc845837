/**
 * The one configuration object. Built once at start from flags, then the environment, then
 * `<data dir>/settings.json`, then defaults (docs/architecture.md, "Configuration and persistence"). Nothing else reads
 * process.env: every part receives the slice it needs. What each variable accepts is in
 * config-table.ts.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CAMERA_SETTING, type CameraSetting } from './camera/camera-setting.ts';
import { CONFIG_KEYS, TABLE, type ConfigKey, type Entry, type Flags, type Parsed } from './config-table.ts';
import type { LogLevel } from './log.ts';

export { CONFIG_KEYS, isLoopbackHost, type ConfigKey, type Flags } from './config-table.ts';

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
  /** Variables and settings.json keys given that are not settings (a typo, or another program's), said at start. */
  readonly ignored: readonly string[];
}

export interface RecorderConfig {
  /** 0 turns the recorder off (kept recordings stay listed and downloadable). */
  readonly maxMinutes: number;
  readonly maxBytes: number;
  /** Camera frames per second in recordings; 0 records no frames. */
  readonly cameraFps: number;
}

/** The recorder's defaults, also shown in the README's configuration table (a test compares them). */
export const RECORDER_DEFAULTS: RecorderConfig = Object.freeze({
  maxMinutes: 10,
  maxBytes: 500 * 1024 * 1024,
  cameraFps: 5,
});

/** A device identity on the hosted platform, as the platform client's enrolment takes it. */
export interface PlatformIdentity {
  readonly platformUrl: string;
  readonly deviceId: string;
  readonly token: string;
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
  const ignored = ignoredNames(env, settings);

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
      maxBytes:
        parsed.ROBOT_RECORD_MB !== undefined ? parsed.ROBOT_RECORD_MB * 1024 * 1024 : RECORDER_DEFAULTS.maxBytes,
      cameraFps: parsed.ROBOT_RECORD_FPS ?? RECORDER_DEFAULTS.cameraFps,
    }),
    mdns: parsed.ROBOT_MDNS ?? true,
    spare: parsed.ROBOT_SPARE ?? true,
    ignored: Object.freeze(ignored),
  });
}

/** ROBOT_ variables that are not settings but are read by a tool of this repo (server/real-daemon/venv.ts). */
const TOOL_VARIABLES: ReadonlySet<string> = new Set(['ROBOT_REAL_DAEMON_CACHE']);

/**
 * What looks like a setting and is not one. A typo (ROBOT_PORT for ROBOT_HTTP_PORT) used to be
 * dropped without a word, and the cockpit listened where the operator had not asked it to. Not
 * an error: another program may use a ROBOT_ name, and an older settings.json may keep a key
 * this version no longer reads.
 */
function ignoredNames(env: ConfigSources['env'], settings: Readonly<Record<string, unknown>>): string[] {
  const known = new Set<string>(CONFIG_KEYS);
  const fromEnv = Object.keys(env).filter(
    (name) => name.startsWith('ROBOT_') && env[name] !== undefined && !known.has(name) && !TOOL_VARIABLES.has(name),
  );
  const fromSettings = Object.keys(settings).filter((name) => !known.has(name));
  return [...fromEnv.sort(), ...fromSettings.sort().map((name) => `${name} in settings.json`)];
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
