/**
 * /api/apps (docs/daemon.md, "Apps"), after reachy_mini's routers/apps.py: the store lists, install
 * / remove / update as background jobs, start (plain and `no-evict`), stop, restart, the current
 * app's status and the startup app. A RuntimeError of the manager is a 400 `{"detail"}`; anything
 * else escapes as the 500 text/plain uvicorn sends (an unknown app's start, as on the robot).
 */
import { SOURCE_KINDS, type SourceKind } from './app-catalog.ts';
import { AppRefusal } from './apps.ts';
import type { SimContext } from './context.ts';
import { isObject, oneOf, str, type Errors } from './fields.ts';
import { DetailError, jsonBody, route, UncaughtError, type Route, type SimRequest } from './http-kit.ts';
import { missing, modelAttributesType, ValidationError } from './pydantic.ts';

function parseAppInfo(body: unknown): { name: string; source_kind: SourceKind } {
  if (body === undefined) throw new ValidationError([missing(['body'])]);
  if (!isObject(body)) throw new ValidationError([modelAttributesType(['body'], body)]);
  const errors: Errors = [];
  if (body.name === undefined) errors.push(missing(['body', 'name'], body));
  if (body.source_kind === undefined) errors.push(missing(['body', 'source_kind'], body));
  const name = body.name === undefined ? undefined : str(body.name, ['body', 'name'], errors);
  const kind =
    body.source_kind === undefined ? undefined : oneOf(body.source_kind, ['body', 'source_kind'], errors, SOURCE_KINDS);
  if (errors.length > 0 || name === undefined || kind === undefined) throw new ValidationError(errors);
  return { name, source_kind: kind };
}

function parseStartupApp(body: unknown): string | null {
  if (body === undefined) throw new ValidationError([missing(['body'])]);
  if (!isObject(body)) throw new ValidationError([modelAttributesType(['body'], body)]);
  const value = body.startup_app;
  if (value === undefined || value === null) return null;
  const errors: Errors = [];
  const name = str(value, ['body', 'startup_app'], errors);
  if (name === undefined) throw new ValidationError(errors);
  return name;
}

/** RuntimeError → 400; any other failure is uncaught (500). */
async function manager<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppRefusal) throw new DetailError(400, error.message);
    throw new UncaughtError(String(error));
  }
}

export function appRoutes(ctx: SimContext): Route[] {
  const apps = ctx.apps;
  const list = (kind: SourceKind) => (kind === 'installed' ? apps.installed() : kind === 'local' ? [] : apps.store());
  const start = (req: SimRequest) => manager(() => ({ json: apps.start(req.params.app_name ?? '') }));
  return [
    route('GET', '/api/apps/list-available/{source_kind}', (req) => {
      const errors: Errors = [];
      const kind = oneOf(req.params.source_kind, ['path', 'source_kind'], errors, SOURCE_KINDS);
      if (!kind) throw new ValidationError(errors);
      return { json: list(kind) };
    }),
    route('GET', '/api/apps/list-available', () => ({ json: [...apps.store(), ...apps.installed()] })),
    route('POST', '/api/apps/install', (req) => {
      const info = parseAppInfo(jsonBody(req));
      if (info.source_kind !== 'hf_space')
        throw new DetailError(400, `source_kind '${info.source_kind}' is not installable via the API`);
      return { json: { job_id: apps.install(info.name) } };
    }),
    route('POST', '/api/apps/remove/{app_name}', (req) => ({ json: { job_id: apps.remove(req.params.app_name ?? '') } })),
    route('POST', '/api/apps/update/{app_name}', (req) => ({ json: { job_id: apps.update(req.params.app_name ?? '') } })),
    route('GET', '/api/apps/check-updates', () => {
      const outdated = apps.outdated();
      return {
        json: {
          apps_with_updates: outdated.map((o) => ({
            app_name: o.name,
            space_id: `pollen-sim/${o.name}`,
            installed_sha: o.installed,
            latest_sha: o.latest,
            update_available: true,
            last_modified: null,
          })),
          apps_checked: apps.installed().length,
          apps_skipped: 0,
        },
      };
    }),
    route('POST', '/api/apps/start-app/{app_name}', start),
    route('POST', '/api/apps/start-app/{app_name}/no-evict', start),
    route('POST', '/api/apps/restart-current-app', () => manager(async () => ({ json: await apps.restart() }))),
    route('POST', '/api/apps/stop-current-app', () =>
      manager(async () => {
        await apps.stop();
        return { json: null };
      }),
    ),
    route('GET', '/api/apps/current-app-status', () => ({ json: apps.status() })),
    route('GET', '/api/apps/startup-app', () => ({ json: { startup_app: apps.startupApp } })),
    route('PUT', '/api/apps/startup-app', (req) => {
      const name = parseStartupApp(jsonBody(req));
      if (name && !apps.isInstalled(name)) throw new DetailError(400, `App '${name}' is not installed`);
      apps.startupApp = name;
      return { json: { startup_app: name } };
    }),
  ];
}
