/** `POST /api/console/selftest` (server/selftest/) as the card calls it; the result is server/contract/selftest.ts. */
import type { SelfTestResult } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

export interface SelfTestApi {
  run(confirmMove: boolean): Promise<ApiResult<SelfTestResult>>;
  last(): Promise<ApiResult<{ last: SelfTestResult | null }>>;
}

export function createSelfTestApi(http: HttpClient): SelfTestApi {
  return {
    run: (confirmMove) =>
      http.request<SelfTestResult>('/api/console/selftest', { method: 'POST', body: { confirmMove } }),
    last: () => http.request<{ last: SelfTestResult | null }>('/api/console/selftest'),
  };
}
