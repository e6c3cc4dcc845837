/**
 * Which model the agent uses: the provider kind, its base URL, the model name and the key.
 * Checked here once for all three sources (the dashboard's PUT, the test-connection body and
 * the headless ROBOT_MODEL_* override), and turned into a ModelProvider. The key is a secret:
 * it is kept server-side only and is dropped when the provider or the server it would be sent
 * to changes, so a key typed for one vendor never travels to another host.
 */
import { badRequest } from '../../errors.ts';
import { ANTHROPIC_DEFAULT_BASE_URL, createAnthropicProvider } from './anthropic.ts';
import { createOpenAiProvider, OPENAI_DEFAULT_BASE_URL } from './openai-compatible.ts';
import type { PlatformChat } from '../../contract/platform.ts';
import { createPlatformProvider } from './platform.ts';
import type { ProviderChoice } from '../../contract/model-settings.ts';
import type { FetchLike, ModelProvider } from './types.ts';

export interface ModelConfig {
  provider: ProviderChoice;
  /** '' means the provider's default (OpenAI's or Anthropic's public API). */
  baseUrl: string;
  model: string;
  /** Absent when none is stored. */
  key?: string;
}

export const PROVIDERS: readonly ProviderChoice[] = ['none', 'openai', 'anthropic', 'platform'];
export const NO_MODEL: ModelConfig = Object.freeze({ provider: 'none', baseUrl: '', model: '' });

const MAX_URL = 500;
const MAX_MODEL = 200;
const MAX_KEY = 1000;

/** The PUT / test body (ModelSettingsInput) once checked: `key` undefined keeps the stored key, '' clears it. */
export interface ModelConfigInput {
  provider: ProviderChoice;
  baseUrl: string;
  model: string;
  key: string | undefined;
}

function optionalText(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  if (value.length > max) throw badRequest(`${field} must be at most ${max} characters`);
  // Control characters in a header value (the key) or a URL are never legitimate.
  if ([...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    throw badRequest(`${field} must not contain control characters`);
  return value.trim();
}

function checkUrl(raw: string): string {
  if (raw === '') return '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('baseUrl must be an http(s) URL, e.g. http://127.0.0.1:11434/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('baseUrl must be an http(s) URL');
  if (url.username || url.password) throw badRequest('baseUrl must not carry credentials; use key');
  return raw.replace(/\/+$/, '');
}

/** Validates `{provider, baseUrl?, model?, key?}` (unknown fields refused, 400 naming the field). */
export function parseModelConfigInput(raw: unknown): ModelConfigInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('body must be a JSON object');
  const body = raw as Record<string, unknown>;
  for (const field of Object.keys(body)) {
    if (!['provider', 'baseUrl', 'model', 'key'].includes(field))
      throw badRequest(`unknown field ${field} (expected provider, baseUrl, model, key)`);
  }
  const provider = body.provider;
  if (typeof provider !== 'string' || !(PROVIDERS as readonly string[]).includes(provider))
    throw badRequest(`provider must be one of ${PROVIDERS.join(', ')}`);
  const model = optionalText(body, 'model', MAX_MODEL) ?? '';
  if ((provider === 'openai' || provider === 'anthropic') && model === '')
    throw badRequest('model is required for this provider (e.g. llama3.2, gpt-4o-mini, claude-sonnet-4-5)');
  return {
    provider: provider as ProviderChoice,
    baseUrl: checkUrl(optionalText(body, 'baseUrl', MAX_URL) ?? ''),
    model,
    key: optionalText(body, 'key', MAX_KEY),
  };
}

/** The server a key would be sent to: it must not change under a kept key. */
export function keyTarget(config: Pick<ModelConfig, 'provider' | 'baseUrl'>): string {
  const base =
    config.baseUrl ||
    (config.provider === 'anthropic'
      ? ANTHROPIC_DEFAULT_BASE_URL
      : config.provider === 'openai'
        ? OPENAI_DEFAULT_BASE_URL
        : '');
  try {
    return `${config.provider} ${new URL(base).origin}`;
  } catch {
    return config.provider;
  }
}

/** Applies an input over the stored config: an omitted key is kept only for the same target. */
export function mergeModelConfig(stored: ModelConfig, input: ModelConfigInput): ModelConfig {
  const next: ModelConfig = { provider: input.provider, baseUrl: input.baseUrl, model: input.model };
  if (input.provider === 'none' || input.provider === 'platform') return next;
  const key = input.key ?? (keyTarget(stored) === keyTarget(next) ? stored.key : undefined);
  if (key) next.key = key;
  return next;
}

export interface BuildDeps {
  fetch?: FetchLike;
  /** The platform client's chat stream, when the robot is enrolled; see platform.ts. */
  platform?: PlatformChat;
}

/** The provider for a config, or why there is none. */
export function buildProvider(config: ModelConfig, deps: BuildDeps): { provider: ModelProvider } | { problem: string } {
  const extra = deps.fetch ? { fetch: deps.fetch } : {};
  switch (config.provider) {
    case 'none':
      return { problem: 'no model configured' };
    case 'openai':
      return {
        provider: createOpenAiProvider({
          baseUrl: config.baseUrl || OPENAI_DEFAULT_BASE_URL,
          model: config.model,
          ...(config.key ? { key: config.key } : {}),
          ...extra,
        }),
      };
    case 'anthropic':
      if (!config.key) return { problem: 'the Anthropic provider needs an API key' };
      return {
        provider: createAnthropicProvider({
          baseUrl: config.baseUrl || ANTHROPIC_DEFAULT_BASE_URL,
          model: config.model,
          key: config.key,
          ...extra,
        }),
      };
    case 'platform':
      if (!deps.platform) return { problem: 'the platform provider needs the robot enrolled with the platform' };
      return { provider: createPlatformProvider(deps.platform) };
  }
}
