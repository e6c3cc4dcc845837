/**
 * The diagnostics bundle an operator downloads to report a problem: versions, the configuration
 * with every secret removed, recent logs and the health history. Nothing in it can sign in.
 */
import { arch, platform, release } from 'node:os';
import type { Config } from '../config.ts';
import type { Health } from '../contract/health.ts';
import { redact, redactText } from '../log.ts';
import { COCKPIT_VERSION } from '../version.ts';
import type { HealthSummary } from './health-history.ts';
import type { LogRing } from './log-ring.ts';

/** Config members that are secrets, or hold them. */
const SECRET_MEMBERS = new Set(['token', 'regToken', 'model', 'platform', 'platformSessionToken']);

export function publicConfig(config: Config): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    // A URL setting (the rover's, the daemon's) may carry user:password as given.
    if (!SECRET_MEMBERS.has(key)) out[key] = typeof value === 'string' ? redactText(value) : value;
  }
  out['token'] = config.token ? '[set]' : '[generated]';
  out['regToken'] = config.regToken ? '[set]' : '[unset]';
  out['model'] = {
    provider: config.model.provider ?? '[dashboard]',
    baseUrl: config.model.baseUrl === undefined ? undefined : redactText(config.model.baseUrl),
    model: config.model.model,
    key: config.model.key ? '[set]' : '[unset]',
  };
  out['platform'] = config.platform
    ? { platformUrl: redactText(config.platform.platformUrl), deviceId: config.platform.deviceId, token: '[set]' }
    : null;
  out['platformSessionToken'] = config.platformSessionToken ? '[set]' : '[unset]';
  return out;
}

export interface BundleInput {
  config: Config;
  health: Health;
  history: readonly HealthSummary[];
  logs: LogRing;
  /** Feature sections (the robot's apps, the last self-test), each under its own key. */
  extras?: Record<string, unknown>;
}

export function diagnosticsBundle(input: BundleInput): Record<string, unknown> {
  return {
    generatedAt: new Date().toISOString(),
    versions: {
      cockpit: COCKPIT_VERSION,
      node: process.version,
      os: `${platform()} ${release()} ${arch()}`,
      daemon: input.health.daemon.version,
    },
    config: publicConfig(input.config),
    health: input.health,
    healthHistory: input.history,
    logs: redact(input.logs.recent({ limit: 1000 })),
    ...(input.extras ? (redact(input.extras) as Record<string, unknown>) : {}),
  };
}
