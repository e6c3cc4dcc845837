/**
 * The model settings form as data: what the person typed becomes the PUT / test body of
 * /api/console/agent (README-agent.md). The stored key never comes back from the cockpit, so the
 * form only says whether one is stored and offers to keep, replace or clear it.
 */
import type { ModelSettingsInput, ModelSettingsView, ProviderChoice } from '../../lib/api/agent-api.ts';

export type KeyAction = 'keep' | 'replace' | 'clear';

export interface SettingsDraft {
  provider: ProviderChoice;
  baseUrl: string;
  model: string;
  keyAction: KeyAction;
  /** The new key, when replacing. */
  key: string;
}

export const PROVIDER_OPTIONS: readonly { value: ProviderChoice; label: string; help: string }[] = [
  { value: 'none', label: 'None', help: 'The agent is off: Ask needs a provider (the thinker keeps to its rules).' },
  {
    value: 'openai',
    label: 'OpenAI-compatible',
    help: 'OpenAI, or a local server: Ollama, llama.cpp, vLLM, LM Studio.',
  },
  { value: 'anthropic', label: 'Anthropic', help: 'Claude models through the Anthropic Messages API; needs a key.' },
  { value: 'platform', label: 'Platform', help: 'The hosted platform answers, through this robot’s enrolment.' },
];

export const BASE_URL_HINT: Partial<Record<ProviderChoice, string>> = {
  openai: 'https://api.openai.com/v1 (empty), or http://127.0.0.1:11434/v1 for Ollama',
  anthropic: 'https://api.anthropic.com (empty)',
};

/** Providers that talk to a model server of their own: base URL, model and key apply. */
export const usesServer = (provider: ProviderChoice): boolean => provider === 'openai' || provider === 'anthropic';

export function draftFrom(view: ModelSettingsView): SettingsDraft {
  return { provider: view.provider, baseUrl: view.baseUrl, model: view.model, keyAction: 'keep', key: '' };
}

/** The body for PUT and test: a kept key is left out, a cleared one is sent as ''. */
export function settingsBody(draft: SettingsDraft): ModelSettingsInput {
  if (draft.provider === 'none') return { provider: 'none' };
  const model = draft.model.trim();
  if (!usesServer(draft.provider))
    return model === '' ? { provider: draft.provider } : { provider: draft.provider, model };
  const body: ModelSettingsInput = { provider: draft.provider, baseUrl: draft.baseUrl.trim(), model };
  if (draft.keyAction === 'replace' && draft.key.trim() !== '') body.key = draft.key.trim();
  if (draft.keyAction === 'clear') body.key = '';
  return body;
}

/** What must be fixed before saving, or null. */
export function draftProblem(draft: SettingsDraft, hasKey: boolean): string | null {
  if (!usesServer(draft.provider)) return null;
  if (draft.model.trim() === '')
    return 'Enter the model name (for example llama3.2, gpt-4o-mini or claude-sonnet-4-5).';
  const url = draft.baseUrl.trim();
  if (url !== '' && !/^https?:\/\/\S+$/i.test(url)) return 'The base URL must start with http:// or https://.';
  if (draft.keyAction === 'replace' && draft.key.trim() === '') return 'Paste the new key, or keep the stored one.';
  const keyAfter = draft.keyAction === 'replace' || (draft.keyAction === 'keep' && hasKey);
  if (draft.provider === 'anthropic' && !keyAfter) return 'Anthropic needs an API key.';
  return null;
}
