/**
 * The robot's apps routes of the desktop server (server/desktop/routes/apps-routes.ts) as the apps page
 * calls them, through the session's HTTP client. Shapes come from server/contract/apps.ts.
 */
import type { AppJob, AppLogs, AppsOverview, AppUpdateCheck, StoreApp } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

export interface AppsApi {
  overview(): Promise<ApiResult<AppsOverview>>;
  store(): Promise<ApiResult<StoreApp[]>>;
  jobs(): Promise<ApiResult<AppJob[]>>;
  logs(app: string): Promise<ApiResult<AppLogs>>;
  install(name: string): Promise<ApiResult<AppJob>>;
  remove(name: string): Promise<ApiResult<AppJob>>;
  update(name: string): Promise<ApiResult<AppJob>>;
  checkUpdates(): Promise<ApiResult<AppUpdateCheck>>;
  start(name: string): Promise<ApiResult<AppsOverview>>;
  stop(): Promise<ApiResult<AppsOverview>>;
  restart(): Promise<ApiResult<AppsOverview>>;
  setStartup(name: string | null): Promise<ApiResult<AppsOverview>>;
}

export function createAppsApi(http: HttpClient, slow: HttpClient = http): AppsApi {
  const post = <T>(path: string, body?: unknown) =>
    slow.request<T>(path, { method: 'POST', ...(body === undefined ? {} : { body }) });
  return {
    overview: () => http.request<AppsOverview>('/api/console/apps'),
    store: () => http.request<StoreApp[]>('/api/console/apps/store'),
    jobs: () => http.request<AppJob[]>('/api/console/apps/jobs'),
    logs: (app) => slow.request<AppLogs>(`/api/console/apps/logs?app=${encodeURIComponent(app)}`),
    install: (name) => post<AppJob>('/api/console/apps/install', { name }),
    remove: (name) => post<AppJob>('/api/console/apps/remove', { name }),
    update: (name) => post<AppJob>('/api/console/apps/update', { name }),
    checkUpdates: () => post<AppUpdateCheck>('/api/console/apps/check-updates'),
    start: (name) => post<AppsOverview>('/api/console/apps/start', { name }),
    stop: () => post<AppsOverview>('/api/console/apps/stop'),
    restart: () => post<AppsOverview>('/api/console/apps/restart'),
    setStartup: (name) => slow.request<AppsOverview>('/api/console/apps/startup', { method: 'PUT', body: { name } }),
  };
}
