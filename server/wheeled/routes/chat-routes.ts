/**
 * The wheeled server's agent and voice settings routes: the synchronous chat turn (docs/contract.md,
 * The wheeled server: POST /api/chat, at most 600 characters, 90 s, 504 on timeout, no fleet tools), the
 * model settings the dashboard edits (the same store and rules as the desktop server's
 * /api/console/agent/*), and the voice settings /ws/voice follows.
 */
import type { Context } from 'koa';
import type { ModelSettings } from '../../agent/providers/model-settings.ts';
import { credentialOf } from '../../http/access-gate.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { parseChatBody } from '../chat/chat-input.ts';
import type { WheeledAgent } from '../chat/wheeled-agent.ts';
import type { VoiceSettings } from '../voice/voice-settings.ts';

export interface ChatRouteDeps {
  agent: Pick<WheeledAgent, 'chat'>;
  model: Pick<ModelSettings, 'view' | 'update' | 'test'>;
  voice: Pick<VoiceSettings, 'view' | 'update'>;
}

function noStore(ctx: Context, body: unknown): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

export function chatRoutes(deps: ChatRouteDeps): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/api/chat',
      access: 'key',
      summary: 'one agent turn: {prompt} or {text} (≤600 chars); {ok, result, reply, seconds}; 504 after 90 s',
      async handler(ctx) {
        const prompt = parseChatBody(await readJsonBody(ctx));
        noStore(ctx, await deps.agent.chat(prompt, credentialOf(ctx)));
      },
    },
    {
      method: 'GET',
      path: '/api/console/agent/settings',
      access: 'key',
      summary: 'model settings {provider, baseUrl, model, hasKey, source, editable, problem?}; never the key',
      handler: (ctx) => noStore(ctx, deps.model.view()),
    },
    {
      method: 'PUT',
      path: '/api/console/agent/settings',
      access: 'key',
      // It stores a secret: same-origin and rate limit like a control, so CSRF cannot set it.
      control: true,
      summary:
        'save {provider (none, openai, anthropic or platform), baseUrl?, model?, key?}; key omitted keeps, "" clears',
      async handler(ctx) {
        noStore(ctx, await deps.model.update(await readJsonBody(ctx)));
      },
    },
    {
      method: 'POST',
      path: '/api/console/agent/test',
      access: 'key',
      control: true,
      summary: 'test the given (or, for {}, the saved) model settings: {ok, model, latencyMs} or {ok: false, error}',
      async handler(ctx) {
        noStore(ctx, await deps.model.test(await readJsonBody(ctx)));
      },
    },
    {
      method: 'GET',
      path: '/api/console/voice',
      access: 'key',
      summary: 'voice settings {provider (offline or realtime), realtime, transcription}; keys shown as hasKey',
      handler: (ctx) => noStore(ctx, deps.voice.view()),
    },
    {
      method: 'PUT',
      path: '/api/console/voice',
      access: 'key',
      control: true,
      summary: 'save {provider?, realtime?: {url, model, voice, key}, transcription?: {url, model, key} or null}',
      async handler(ctx) {
        noStore(ctx, await deps.voice.update(await readJsonBody(ctx)));
      },
    },
  ];
}
