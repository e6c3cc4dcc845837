/**
 * The model settings the dashboard edits, the same three routes on both servers
 * (docs/contract.md, "Routes"): read them (never the key), save them, and test a connection.
 * Saving and testing go through the control guard like a control: they store or send a secret,
 * so a foreign page must not set them (CSRF) and a script must not hammer them.
 */
import { readJsonBody } from '../../http/json-body.ts';
import { replyNoStore } from '../../http/no-store.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { ModelSettings } from './model-settings.ts';

export function modelSettingsRoutes(settings: Pick<ModelSettings, 'view' | 'update' | 'test'>): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/console/agent/settings',
      access: 'key',
      summary: 'model settings: {provider, baseUrl, model, hasKey, source, editable, problem?}; never the key',
      handler: (ctx) => replyNoStore(ctx, settings.view()),
    },
    {
      method: 'PUT',
      path: '/api/console/agent/settings',
      access: 'key',
      control: true,
      summary: 'save {provider: none|openai|anthropic|platform, baseUrl?, model?, key?}; key omitted keeps, "" clears',
      async handler(ctx) {
        replyNoStore(ctx, await settings.update(await readJsonBody(ctx)));
      },
    },
    {
      method: 'POST',
      path: '/api/console/agent/test',
      access: 'key',
      control: true,
      summary:
        'test connection with the given (or, for {}, the saved) settings: {ok, model, latencyMs} or {ok: false, error}',
      async handler(ctx) {
        replyNoStore(ctx, await settings.test(await readJsonBody(ctx)));
      },
    },
  ];
}
