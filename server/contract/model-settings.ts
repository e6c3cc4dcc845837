/**
 * The agent's model settings under /api/console/agent (server/agent/README-agent.md): what GET and
 * PUT answer, the PUT and test body, and what a connection test reports. The key goes in and never
 * comes back: the view only says whether one is stored. Declared once for the cockpit and the
 * dashboard (docs/contract.md).
 */

/** The kinds of model provider the agent can run. */
export type ProviderKind = 'openai' | 'anthropic' | 'platform';

/** A provider, or none (the agent does not run). */
export type ProviderChoice = ProviderKind | 'none';

export interface ModelSettingsView {
  provider: ProviderChoice;
  baseUrl: string;
  model: string;
  hasKey: boolean;
  /** env: ROBOT_MODEL_* decide and the dashboard cannot edit. */
  source: 'env' | 'dashboard';
  editable: boolean;
  /** Why the agent cannot run with these settings; absent when it can. */
  problem?: string;
}

/**
 * PUT and test body. `baseUrl` and `model` omitted mean empty (the provider's default server; a
 * model is required for openai and anthropic); `key` omitted keeps the stored key (same provider
 * and server), '' clears it.
 */
export interface ModelSettingsInput {
  provider: ProviderChoice;
  baseUrl?: string;
  model?: string;
  key?: string;
}

export type ConnectionTestResult = { ok: true; model: string; latencyMs: number } | { ok: false; error: string };
