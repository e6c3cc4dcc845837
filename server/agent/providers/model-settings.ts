/**
 * The agent's model settings, edited from the dashboard (`/api/console/agent/*`) and stored in
 * the data dir as an atomic 0600 JSON document (docs/architecture.md, "Configuration and persistence": secrets never reach the
 * renderer after they are saved; the view shows `hasKey`, never the key). A headless robot may
 * set ROBOT_MODEL_PROVIDER / _BASE_URL / _MODEL / _KEY instead: that override wins and makes the
 * dashboard settings read-only, so what runs is always what the view shows.
 */
import { AppError } from '../../errors.ts';
import type { Log } from '../../log.ts';
import { createJsonDocument, type JsonDocument } from '../../store/json-document.ts';
import type { ConnectionTestResult, ModelSettingsView, ProviderChoice } from '../../contract/model-settings.ts';
import { testConnection } from './connection-test.ts';
import {
  buildProvider,
  mergeModelConfig,
  NO_MODEL,
  parseModelConfigInput,
  PROVIDERS,
  type BuildDeps,
  type ModelConfig,
} from './model-config.ts';
import type { ModelProvider } from './types.ts';

/** The ROBOT_MODEL_* values, as config.ts read them (all optional). */
export interface ModelEnv {
  provider?: string;
  baseUrl?: string;
  model?: string;
  key?: string;
}

export interface ModelSettingsDeps extends BuildDeps {
  /** `<data dir>/agent-model.json` */
  file: string;
  env?: ModelEnv;
  log: Log;
  /** Test-connection timeout; 10 s by default. */
  testTimeoutMs?: number;
}

export interface ModelSettings {
  load(): Promise<void>;
  view(): ModelSettingsView;
  /** PUT: validates (400), refuses while the env override holds (409), saves, returns the view. */
  update(raw: unknown): Promise<ModelSettingsView>;
  /** The provider to run a turn with; 503 NOT_CONFIGURED "no model configured" otherwise. */
  provider(): ModelProvider;
  configured(): boolean;
  /** Tests the given settings (an empty body: the current ones) without saving them. */
  test(raw: unknown): Promise<ConnectionTestResult>;
}

function validateDoc(u: unknown): ModelConfig | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const d = u as Record<string, unknown>;
  const ok =
    typeof d.provider === 'string' &&
    (PROVIDERS as readonly string[]).includes(d.provider) &&
    typeof d.baseUrl === 'string' &&
    typeof d.model === 'string' &&
    (d.key === undefined || typeof d.key === 'string');
  if (!ok) return undefined;
  const config: ModelConfig = {
    provider: d.provider as ProviderChoice,
    baseUrl: d.baseUrl as string,
    model: d.model as string,
  };
  if (typeof d.key === 'string') config.key = d.key;
  return config;
}

/** The env override as a config, or undefined when ROBOT_MODEL_PROVIDER is unset. */
function envConfig(env: ModelEnv | undefined): ModelConfig | undefined {
  if (!env?.provider) return undefined;
  try {
    const input = parseModelConfigInput({
      provider: env.provider,
      baseUrl: env.baseUrl,
      model: env.model,
      key: env.key,
    });
    return mergeModelConfig(NO_MODEL, input);
  } catch (error) {
    throw new Error(`ROBOT_MODEL_* settings are invalid: ${(error as Error).message}`);
  }
}

export function createModelSettings(deps: ModelSettingsDeps): ModelSettings {
  const fromEnv = envConfig(deps.env);
  const doc: JsonDocument<ModelConfig> = createJsonDocument({
    file: deps.file,
    defaults: () => ({ ...NO_MODEL }),
    validate: validateDoc,
    log: deps.log,
  });
  let cache: { config: ModelConfig; built: ReturnType<typeof buildProvider> } | undefined;
  const current = (): ModelConfig => fromEnv ?? doc.get();
  const built = () => {
    const config = current();
    if (cache?.config !== config) cache = { config, built: buildProvider(config, deps) };
    return cache.built;
  };
  const view = (): ModelSettingsView => {
    const c = current();
    const b = built();
    const base = { provider: c.provider, baseUrl: c.baseUrl, model: c.model, hasKey: Boolean(c.key) };
    const source = fromEnv ? ('env' as const) : ('dashboard' as const);
    return { ...base, source, editable: !fromEnv, ...('problem' in b ? { problem: b.problem } : {}) };
  };
  return {
    load: async () => void (await doc.load()),
    view,
    async update(raw) {
      if (fromEnv)
        throw new AppError('CONFLICT', 'the model is set by ROBOT_MODEL_* variables; unset them to edit it here');
      const input = parseModelConfigInput(raw);
      await doc.update((stored) => mergeModelConfig(stored, input));
      deps.log.info('model settings saved', { provider: input.provider, model: input.model });
      return view();
    },
    provider() {
      const b = built();
      if ('provider' in b) return b.provider;
      const detail = b.problem === 'no model configured' ? '' : ` (${b.problem})`;
      throw new AppError('NOT_CONFIGURED', `no model configured${detail}`);
    },
    configured: () => 'provider' in built(),
    async test(raw) {
      const empty = typeof raw === 'object' && raw !== null && Object.keys(raw).length === 0;
      const config = empty ? current() : mergeModelConfig(current(), parseModelConfigInput(raw));
      const b = buildProvider(config, deps);
      if ('problem' in b) return { ok: false, error: b.problem };
      return testConnection(b.provider, deps.testTimeoutMs !== undefined ? { timeoutMs: deps.testTimeoutMs } : {});
    },
  };
}
