/**
 * Operator diagnostics: the recent log for the dashboard's viewer, a bundle download, and the
 * health history the dashboard's health plots start from.
 */
import type { HealthHistoryView } from '../../contract/health.ts';
import type { Config } from '../../config.ts';
import { diagnosticsBundle } from '../../diagnostics/bundle.ts';
import type { HealthHistory } from '../../diagnostics/health-history.ts';
import type { LogRing } from '../../diagnostics/log-ring.ts';
import { badRequest } from '../../errors.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { LogRecord, RecentLogs } from '../../contract/diagnostics.ts';
import type { RobotCore } from '../robot-core.ts';

export interface DiagnosticsDeps {
  config: Config;
  robot: RobotCore;
  logs: LogRing;
  history: HealthHistory;
  /** Feature sections for the bundle (the robot's apps, the last self-test). */
  extras?: () => Record<string, unknown>;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** What a newly opened health view shows: the last ten minutes. */
export const HEALTH_WINDOW_MS = 10 * 60_000;

export function diagnosticsRoutes(deps: DiagnosticsDeps): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/console/health/history',
      access: 'key',
      summary:
        'health history of the last 10 minutes, oldest first: {everyMs, windowMs, samples: [{t, streamHz, loopHz, cameraFps, control {count, p50Ms, maxMs}, cpuPercent…}]}',
      handler(ctx) {
        const view: HealthHistoryView = {
          everyMs: deps.history.everyMs,
          windowMs: HEALTH_WINDOW_MS,
          samples: deps.history.recent(HEALTH_WINDOW_MS),
        };
        ctx.set('Cache-Control', 'no-store');
        ctx.body = view;
      },
    },
    {
      method: 'GET',
      path: '/api/console/diagnostics/logs',
      access: 'key',
      summary: 'recent structured log records; n (≤1000), level (debug|info|warn|error)',
      handler(ctx) {
        const n = ctx.query['n'] === undefined ? 200 : Number(ctx.query['n']);
        if (!Number.isInteger(n) || n < 1 || n > 1000) throw badRequest('n must be an integer from 1 to 1000');
        const level = (ctx.query['level'] ?? 'debug') as LogRecord['level'];
        if (!LEVELS.includes(level)) throw badRequest('level must be debug, info, warn or error');
        ctx.set('Cache-Control', 'no-store');
        const body: RecentLogs = { records: deps.logs.recent({ limit: n, minLevel: level }) };
        ctx.body = body;
      },
    },
    {
      method: 'GET',
      path: '/api/console/diagnostics/bundle',
      access: 'key',
      summary: 'diagnostics bundle download: versions, config without secrets, logs, health history',
      handler(ctx) {
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Content-Disposition', `attachment; filename="robot-cockpit-diagnostics-${stamp}.json"`);
        ctx.body = diagnosticsBundle({
          config: deps.config,
          health: deps.robot.health(),
          history: deps.history.samples(),
          logs: deps.logs,
          ...(deps.extras ? { extras: deps.extras() } : {}),
        });
      },
    },
  ];
}
