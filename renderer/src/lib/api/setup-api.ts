/**
 * First-run setup (server/discovery/README-discovery.md): the robot's name and the guide's
 * state, and the self-test the guide offers. Shapes come from server/contract/discovery.ts.
 */
import type { GuideState, SelfTestResult, SetupView } from '../../../../server/contract/index.ts';
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

export type { GuideState, SetupView };

export function getSetup(http: HttpClient): Promise<ApiResult<SetupView>> {
  return http.request<SetupView>('/api/console/setup');
}

export function putSetup(http: HttpClient, change: { name?: string; guide?: GuideState }): Promise<ApiResult<SetupView>> {
  return http.request<SetupView>('/api/console/setup', { method: 'PUT', body: change });
}

/** Runs the robot-care self-test; builds without it answer 404. */
export function runSelftest(http: HttpClient): Promise<ApiResult<SelfTestResult>> {
  return http.request<SelfTestResult>('/api/console/selftest', { method: 'POST', body: {} });
}
