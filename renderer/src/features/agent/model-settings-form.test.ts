import { describe, expect, it } from 'vitest';
import { draftFrom, draftProblem, settingsBody, type SettingsDraft } from './model-settings-form.ts';

const draft = (extra: Partial<SettingsDraft> = {}): SettingsDraft => ({
  provider: 'openai',
  baseUrl: ' http://127.0.0.1:11434/v1 ',
  model: ' llama3.2 ',
  keyAction: 'keep',
  key: '',
  ...extra,
});

describe('settingsBody', () => {
  it('leaves a kept key out, sends a replaced one and clears with ""', () => {
    expect(settingsBody(draft())).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.2',
    });
    expect(settingsBody(draft({ keyAction: 'replace', key: ' sk-1 ' })).key).toBe('sk-1');
    expect(settingsBody(draft({ keyAction: 'clear', key: 'ignored' })).key).toBe('');
  });

  it('sends only the provider for none, and no server fields for the platform', () => {
    expect(settingsBody(draft({ provider: 'none' }))).toEqual({ provider: 'none' });
    expect(settingsBody(draft({ provider: 'platform', model: '' }))).toEqual({ provider: 'platform' });
    expect(settingsBody(draft({ provider: 'platform', keyAction: 'replace', key: 'x' }))).toEqual({
      provider: 'platform',
      model: 'llama3.2',
    });
  });
});

describe('draftProblem', () => {
  it('asks for a model, a proper URL and a key where needed', () => {
    expect(draftProblem(draft(), false)).toBeNull();
    expect(draftProblem(draft({ model: ' ' }), false)).toMatch(/model name/);
    expect(draftProblem(draft({ baseUrl: 'ftp://x' }), false)).toMatch(/http/);
    expect(draftProblem(draft({ keyAction: 'replace' }), false)).toMatch(/Paste the new key/);
    expect(draftProblem(draft({ provider: 'anthropic' }), false)).toBe('Anthropic needs an API key.');
    expect(draftProblem(draft({ provider: 'anthropic' }), true)).toBeNull();
    expect(draftProblem(draft({ provider: 'anthropic', keyAction: 'clear' }), true)).toBe(
      'Anthropic needs an API key.',
    );
    expect(draftProblem(draft({ provider: 'none', model: '' }), false)).toBeNull();
  });
});

describe('draftFrom', () => {
  it('starts from the saved view, keeping the stored key', () => {
    expect(
      draftFrom({
        provider: 'anthropic',
        baseUrl: '',
        model: 'claude',
        hasKey: true,
        source: 'dashboard',
        editable: true,
      }),
    ).toEqual({ provider: 'anthropic', baseUrl: '', model: 'claude', keyAction: 'keep', key: '' });
  });
});
