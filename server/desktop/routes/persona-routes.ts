/**
 * The voice and messenger personas' console routes: one view of both (settings
 * without secrets, and status), their settings, and the messenger's allowed chats. Keyed like
 * every /api/console/ route; the writes are also same-origin and rate-limited (control), as
 * the agent's settings are: they store secrets and switch a microphone on, so a foreign page
 * must not be able to post them.
 */
import { badRequest } from '../../errors.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { replyNoStore } from '../../http/no-store.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { Personas } from '../../personas/personas.ts';
import { objectBody } from '../../http/settings-input.ts';

function chatIdOf(u: unknown): number {
  const id = typeof u === 'string' && /^-?\d{1,16}$/.test(u) ? Number(u) : u;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id === 0)
    throw badRequest('chatId must be a non-zero integer chat id');
  return id;
}

export function personaRoutes(personas: Personas): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/console/personas',
      access: 'key',
      summary:
        'voice and messenger personas: {voice: {settings, status}, messenger: {settings, status}}; never the secrets',
      handler: (ctx) => replyNoStore(ctx, personas.view()),
    },
    {
      method: 'PUT',
      path: '/api/console/personas/voice',
      access: 'key',
      control: true,
      summary:
        'voice listener: {enabled?, source?, muted?, transcription?: {baseUrl?, model?, language?, key?}}; key omitted keeps, "" clears',
      handler: async (ctx) => replyNoStore(ctx, await personas.updateVoice(await readJsonBody(ctx))),
    },
    {
      method: 'PUT',
      path: '/api/console/personas/messenger',
      access: 'key',
      control: true,
      summary: 'messenger bot: {enabled?, apiBaseUrl?, token?}; token omitted keeps, "" clears',
      handler: async (ctx) => replyNoStore(ctx, await personas.updateMessenger(await readJsonBody(ctx))),
    },
    {
      method: 'POST',
      path: '/api/console/personas/messenger/chats',
      access: 'key',
      control: true,
      summary: 'allow a chat to talk to the robot: {chatId}; ends pairing mode',
      async handler(ctx) {
        const body = objectBody(await readJsonBody(ctx), ['chatId']);
        replyNoStore(ctx, await personas.allowChat(chatIdOf(body.chatId)));
      },
    },
    {
      method: 'DELETE',
      path: '/api/console/personas/messenger/chats/:chatId',
      access: 'key',
      control: true,
      summary: 'stop answering a chat (no body); with none left the bot is in pairing mode again',
      handler: async (ctx) => replyNoStore(ctx, await personas.removeChat(chatIdOf(ctx.params.chatId))),
    },
  ];
}
