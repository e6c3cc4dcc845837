/**
 * Web Push console routes, all keyed: the VAPID public key browsers subscribe with,
 * subscribe and unsubscribe, a test push, and the settings (which kinds are on, the VAPID
 * subject). Thin: bodies are checked strictly at the edge (server/push/subscription-input.ts,
 * push-settings.ts); subscriptions belong to the caller's credential (passkey id, 'token' or
 * 'local-window'). Changes go through the control guard: a foreign page must not subscribe its
 * own endpoint to the robot's notices.
 */
import type { Context } from 'koa';
import { callerOf } from '../../http/access-gate.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { replyNoStore } from '../../http/no-store.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import {
  subscriberOf,
  parseSettingsPatch,
  parseSubscribeBody,
  parseUnsubscribeBody,
  type PushConsole,
} from '../../push/index.ts';

const credential = (ctx: Context) => subscriberOf(callerOf(ctx));

export function pushRoutes(push: PushConsole): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/console/push/key',
      access: 'key',
      summary: 'Web Push: the VAPID public key to subscribe with: {publicKey} (base64url)',
      handler: (ctx) => replyNoStore(ctx, { publicKey: push.publicKey() }),
    },
    {
      method: 'POST',
      path: '/api/console/push/subscribe',
      access: 'key',
      control: true,
      summary:
        "subscribe this browser: {subscription: {endpoint (https), keys: {p256dh, auth}}}; kept for the caller's credential",
      async handler(ctx) {
        const input = parseSubscribeBody(await readJsonBody(ctx));
        replyNoStore(ctx, { ok: true, ...(await push.subscribe(credential(ctx), input)) });
      },
    },
    {
      method: 'POST',
      path: '/api/console/push/unsubscribe',
      access: 'key',
      control: true,
      summary: 'forget a browser: {endpoint}; answers {removed}',
      async handler(ctx) {
        replyNoStore(ctx, await push.unsubscribe(parseUnsubscribeBody(await readJsonBody(ctx))));
      },
    },
    {
      method: 'POST',
      path: '/api/console/push/test',
      access: 'key',
      control: true,
      summary: 'send a test notification to every subscription: {sent, pruned, failed} (gone ones are deleted)',
      handler: async (ctx) => replyNoStore(ctx, await push.test()),
    },
    {
      method: 'GET',
      path: '/api/console/push/settings',
      access: 'key',
      summary:
        'push settings: {subject, kinds: {daemon, camera, stop, agent, platform}, subscriptions: {total, yours}}',
      handler: (ctx) => replyNoStore(ctx, push.settings(credential(ctx))),
    },
    {
      method: 'PUT',
      path: '/api/console/push/settings',
      access: 'key',
      control: true,
      summary:
        'change push settings: {subject? (mailto: or https:), kinds? {daemon, camera, stop, agent, platform: boolean}}',
      async handler(ctx) {
        const patch = parseSettingsPatch(await readJsonBody(ctx));
        replyNoStore(ctx, await push.updateSettings(credential(ctx), patch));
      },
    },
  ];
}
