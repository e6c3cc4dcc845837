/**
 * The desktop server's agent routes (docs/contract.md, "Routes",
 * Limits): the dashboard Ask, its status, fleet chat, the agent log, and the model settings
 * the dashboard edits under /api/console/agent/* (server/agent/providers/model-settings-routes.ts,
 * shared with the wheeled server). Thin: validate at the edge, call the agent, reply. Without a configured model the turn routes answer 503 NOT_CONFIGURED
 * "no model configured".
 */
import type { Context } from 'koa';
import type { EventFrame } from '../../contract/ws.ts';
import { badRequest } from '../../errors.ts';
import { credentialOf } from '../../http/access-gate.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { replyNoStore } from '../../http/no-store.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { AgentLog } from '../../agent/agent-log.ts';
import type { AskRunner } from '../../agent/ask.ts';
import type { FleetChat } from '../../agent/fleet-chat.ts';
import { parsePrompt } from '../../agent/prompt-input.ts';
import type { ModelSettings } from '../../agent/providers/model-settings.ts';
import { modelSettingsRoutes } from '../../agent/providers/model-settings-routes.ts';

export interface AgentRouteDeps {
  settings: Pick<ModelSettings, 'view' | 'update' | 'test'>;
  agentLog: Pick<AgentLog, 'page'>;
  ask: Pick<AskRunner, 'ask' | 'last'>;
  chat: Pick<FleetChat, 'chat'>;
  recentEvents: (limit: number) => readonly EventFrame[];
}

export const LOG_DEFAULT_ROWS = 100;
export const LOG_MAX_ROWS = 300;

/** One query value as an integer in range, or a 400 naming the field. */
function intParam(ctx: Context, name: string, range: { min: number; max: number; what: string }): number | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  const text = Array.isArray(raw) ? undefined : raw;
  const value = text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max)
    throw badRequest(`${name} must be ${range.what}`);
  return value;
}

function turnRoutes(deps: AgentRouteDeps): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/api/control/ask',
      access: 'key',
      control: true,
      summary: 'run one dashboard Ask turn: {prompt} 1-4000 chars; answers {ok, started: rowId}; 409 while one runs',
      async handler(ctx) {
        const credential = credentialOf(ctx);
        const prompt = parsePrompt(await readJsonBody(ctx));
        replyNoStore(ctx, deps.ask.ask(prompt, credential));
      },
    },
    {
      method: 'GET',
      path: '/api/ask/last',
      access: 'key',
      summary: 'Ask status: {running, prompt, answer, startedAt, finishedAt, error}',
      handler: (ctx) => replyNoStore(ctx, deps.ask.last()),
    },
    {
      method: 'POST',
      path: '/api/chat',
      access: 'key',
      summary: 'one fleet turn (no use_device): {prompt} 1-4000 chars; {ok, result, reply, seconds}; 504 after 75 s',
      async handler(ctx) {
        const credential = credentialOf(ctx);
        const prompt = parsePrompt(await readJsonBody(ctx), { extraFields: true, textAlias: true });
        replyNoStore(ctx, await deps.chat.chat(prompt, credential));
      },
    },
    {
      method: 'GET',
      path: '/api/log',
      access: 'key',
      summary: `agent log: n (1-${LOG_MAX_ROWS}, default ${LOG_DEFAULT_ROWS}) rows, after (row id); {rows, events}`,
      handler(ctx) {
        const n =
          intParam(ctx, 'n', { min: 1, max: LOG_MAX_ROWS, what: `an integer from 1 to ${LOG_MAX_ROWS}` }) ??
          LOG_DEFAULT_ROWS;
        const after = intParam(ctx, 'after', {
          min: 0,
          max: Number.MAX_SAFE_INTEGER,
          what: 'a row id (an integer, 0 or more)',
        });
        const rows = deps.agentLog.page(after === undefined ? { n } : { n, after });
        replyNoStore(ctx, { rows, events: deps.recentEvents(n) });
      },
    },
  ];
}

export function agentRoutes(deps: AgentRouteDeps): RouteSpec[] {
  return [...turnRoutes(deps), ...modelSettingsRoutes(deps.settings)];
}
