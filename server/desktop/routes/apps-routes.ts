/**
 * The robot's apps (server/apps/README-apps.md): reads are keyed, writes are control routes
 * (rate limit and same-origin check first). Bodies are checked here; every answer is a shape of
 * server/contract/apps.ts.
 */
import type { Context } from 'koa';
import type { AppLogs } from '../../contract/apps.ts';
import { appName, type AppsService } from '../../apps/apps-service.ts';
import { AppError, badRequest } from '../../errors.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { Method, RouteSpec } from '../../http/route-table.ts';

export interface AppsRouteDeps {
  apps: AppsService;
  logs(app: string): Promise<AppLogs>;
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

async function nameIn(ctx: Context): Promise<string> {
  const body = await readJsonBody(ctx);
  if (!isObject(body)) throw badRequest('the body must be a JSON object: {name}');
  return appName(body.name);
}

function route(
  method: Method,
  path: string,
  summary: string,
  handle: (ctx: Context) => Promise<unknown> | unknown,
): RouteSpec {
  return {
    method,
    path,
    access: 'key',
    ...(method === 'GET' ? {} : { control: true }),
    summary,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await handle(ctx);
    },
  };
}

export function appsRoutes({ apps, logs }: AppsRouteDeps): RouteSpec[] {
  return [
    route(
      'GET',
      '/api/console/apps',
      "the robot's apps: {installed, startupApp, current {name, state, error, errorLines, since}, polledAt, problem}",
      () => (apps.overview().polledAt === null ? apps.refresh() : apps.overview()),
    ),
    route('GET', '/api/console/apps/store', 'apps in the store: [{name, description, url, installed}]', () =>
      apps.store(),
    ),
    route('GET', '/api/console/apps/jobs', 'recent install, remove and update jobs with their log lines', () =>
      apps.jobs(),
    ),
    route('GET', '/api/console/apps/jobs/:id', 'one app job {id, command, app, status, lines, startedAt}', (ctx) => {
      const job = apps.job(String(ctx.params['id']));
      if (!job) throw new AppError('NOT_FOUND', 'no such app job');
      return job;
    }),
    route(
      'GET',
      '/api/console/apps/logs',
      "an app's output from the daemon's journal or log stream: ?app=name; {available, lines} or {available: false, reason}",
      (ctx) => logs(appName(ctx.query['app'])),
    ),
    route(
      'POST',
      '/api/console/apps/install',
      'install from the store: {name}; answers the job, followed live as app_job frames',
      async (ctx) => apps.install(await nameIn(ctx)),
    ),
    route('POST', '/api/console/apps/remove', 'remove an installed app: {name}; answers the job', async (ctx) =>
      apps.remove(await nameIn(ctx)),
    ),
    route('POST', '/api/console/apps/update', 'update an installed app: {name}; answers the job', async (ctx) =>
      apps.update(await nameIn(ctx)),
    ),
    route(
      'POST',
      '/api/console/apps/check-updates',
      'check the installed apps for updates (no body): {checked, updates}',
      () => apps.checkUpdates(),
    ),
    route(
      'POST',
      '/api/console/apps/start',
      'start an installed app: {name}; 409 while another runs or the stop is latched',
      async (ctx) => apps.start(await nameIn(ctx)),
    ),
    route('POST', '/api/console/apps/stop', 'stop the running app (no body); 409 when none runs', () => apps.stop()),
    route('POST', '/api/console/apps/restart', 'restart the running (or crashed) app (no body)', () => apps.restart()),
    route(
      'PUT',
      '/api/console/apps/startup',
      'the app started at wake-up: {name} (installed) or {name: null}',
      async (ctx) => {
        const body = await readJsonBody(ctx);
        if (!isObject(body) || !('name' in body)) throw badRequest('the body must be {name} or {name: null}');
        return apps.setStartup(body.name === null ? null : appName(body.name));
      },
    ),
  ];
}
