/**
 * The agent (server/agent/README-agent.md): the dashboard's Ask, its status, the agent log and
 * the model settings under /api/console/agent. Log rows arrive from the cockpit as JSON and are
 * checked here before any screen reads them. The settings view never carries the key.
 */
import type {
  AgentLogRow,
  AgentRole,
  AskStatus,
  ConnectionTestResult,
  ModelSettingsInput,
  ModelSettingsView,
  ProviderChoice,
  ToolRecord,
} from '../../../../server/contract/index.ts';
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

// The shapes are the contract's (server/contract/); screens take them from here with the calls.
export type {
  AgentLogRow,
  AgentRole,
  AskStatus,
  ConnectionTestResult,
  ModelSettingsInput,
  ModelSettingsView,
  ProviderChoice,
  ToolRecord,
};

export const ASK_MAX_CHARS = 4000;
const ROLES: readonly string[] = ['user', 'assistant', 'tool', 'reasoning'];

/** One row of GET /api/log or an `agent_log` frame; null when it is not a row. */
export function readRow(u: unknown): AgentLogRow | null {
  if (typeof u !== 'object' || u === null) return null;
  const r = u as Record<string, unknown>;
  const tool = r.tool as Record<string, unknown> | undefined;
  const ok =
    Number.isInteger(r.id) &&
    typeof r.time === 'string' &&
    typeof r.role === 'string' &&
    ROLES.includes(r.role) &&
    typeof r.persona === 'string' &&
    typeof r.text === 'string' &&
    (tool === undefined || (typeof tool === 'object' && tool !== null && typeof tool.name === 'string'));
  return ok ? (r as unknown as AgentLogRow) : null;
}

export interface AgentApi {
  ask(prompt: string): Promise<ApiResult<{ ok: true; started: number }>>;
  last(): Promise<ApiResult<AskStatus>>;
  /** The newest `n` rows, oldest first. */
  log(n: number): Promise<ApiResult<AgentLogRow[]>>;
  settings(): Promise<ApiResult<ModelSettingsView>>;
  saveSettings(input: ModelSettingsInput): Promise<ApiResult<ModelSettingsView>>;
  /** Tests the given settings unsaved, or the saved ones for `{}` (up to 10 s on the cockpit). */
  test(input: ModelSettingsInput | Record<string, never>): Promise<ApiResult<ConnectionTestResult>>;
}

/** `slow` serves the calls that wait on a model (longer timeout than the default client). */
export function createAgentApi(http: HttpClient, slow: HttpClient = http): AgentApi {
  return {
    ask: (prompt) => http.request('/api/control/ask', { method: 'POST', body: { prompt } }),
    last: () => http.request('/api/ask/last'),
    async log(n) {
      const result = await http.request<{ rows?: unknown[] }>(`/api/log?n=${n}`);
      if (!result.ok) return result;
      const rows = (result.data.rows ?? []).map(readRow).filter((r): r is AgentLogRow => r !== null);
      return { ...result, data: rows };
    },
    settings: () => http.request('/api/console/agent/settings'),
    saveSettings: (input) => http.request('/api/console/agent/settings', { method: 'PUT', body: input }),
    test: (input) => slow.request('/api/console/agent/test', { method: 'POST', body: input }),
  };
}
