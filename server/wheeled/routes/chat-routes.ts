/**
 * The wheeled server's agent and voice settings routes: the synchronous chat turn (docs/contract.md,
 * The wheeled server: POST /api/chat, at most 600 characters, 90 s, 504 on timeout, no fleet tools), the
 * model settings the dashboard edits (the desktop server's routes and store,
 * server/agent/providers/model-settings-routes.ts), and the voice settings /ws/voice follows.
 */
import type { ModelSettings } from '../../agent/providers/model-settings.ts';
import { modelSettingsRoutes } from '../../agent/providers/model-settings-routes.ts';
import { credentialOf } from '../../http/access-gate.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { replyNoStore } from '../../http/no-store.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { parseChatBody } from '../chat/chat-input.ts';
import type { WheeledAgent } from '../chat/wheeled-agent.ts';
import type { VoiceSettings } from '../voice/voice-settings.ts';

export interface ChatRouteDeps {
  agent: Pick<WheeledAgent, 'chat'>;
  model: Pick<ModelSettings, 'view' | 'update' | 'test'>;
  voice: Pick<VoiceSettings, 'view' | 'update'>;
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
        replyNoStore(ctx, await deps.agent.chat(prompt, credentialOf(ctx)));
      },
    },
    ...modelSettingsRoutes(deps.model),
    {
      method: 'GET',
      path: '/api/console/voice',
      access: 'key',
      summary: 'voice settings {provider (offline or realtime), realtime, transcription}; keys shown as hasKey',
      handler: (ctx) => replyNoStore(ctx, deps.voice.view()),
    },
    {
      method: 'PUT',
      path: '/api/console/voice',
      access: 'key',
      control: true,
      summary:
        'save {provider?, realtime?: {url, model, voice, key} or null, transcription?: {baseUrl, model, language, key} or null}',
      async handler(ctx) {
        await deps.voice.update(await readJsonBody(ctx));
        replyNoStore(ctx, deps.voice.view());
      },
    },
  ];
}
