/**
 * The messenger persona: a Telegram-style bot that long-polls its bot API and
 * answers. While no chat is allowed it is in pairing mode and tells any chat only its id and
 * how to get allowed; afterwards messages from allowed chats run as turns (messenger-turn.ts)
 * and other chats are ignored (but listed for the owner). Offsets are committed before each
 * update is handled (messenger-state.ts), so a restart never handles a message twice. The
 * latched stop and demo mode pause it: the running turn is cut and messages get a "paused"
 * answer. A failure (API unreachable, token refused, another poller) restarts the loop after
 * 5 s, doubling to 300 s.
 */
import type { AgentLog } from '../../agent/agent-log.ts';
import type { AgentRuntime } from '../../agent/agent-runtime.ts';
import type { WatchdogLimits } from '../../agent/watchdog.ts';
import type { ServiceState } from '../../contract/state.ts';
import type { Log } from '../../log.ts';
import { realSchedule, type Schedule } from '../../perception/schedule.ts';
import { createRestarter, type Restarter } from '../restart-backoff.ts';
import { createBotApi, type BotApi, type BotUpdate } from './bot-api.ts';
import { PAUSED_REPLY, pairingReply } from './messenger-replies.ts';
import type { MessengerConfig } from './messenger-settings.ts';
import { botKey, type MessengerState } from './messenger-state.ts';
import type { MessengerLink, MessengerStatus, Stamped } from '../../contract/personas.ts';
import { messengerService } from './messenger-status.ts';
import { handleChatMessage } from './messenger-turn.ts';
import { messageOf } from '../../errors.ts';

export interface MessengerDeps {
  settings: { current(): MessengerConfig };
  state: MessengerState;
  runtime: Pick<AgentRuntime, 'start'>;
  agentLog: Pick<AgentLog, 'add' | 'page'>;
  snapshot(): Promise<Buffer | undefined>;
  log: Log;
  services?: Map<string, ServiceState>;
  fetch?: typeof fetch;
  schedule?: Schedule;
  now?: () => number;
  /** Long-poll timeout, seconds (30: the usual choice; tests use less). */
  pollTimeoutS?: number;
  limits?: WatchdogLimits;
}

export interface Messenger {
  apply(): void;
  pause(): void;
  resume(): void;
  status(): MessengerStatus;
  close(): Promise<void>;
}

/** The fleet chat's budget: a message can wait for a considered answer. */
export const MESSENGER_LIMITS: WatchdogLimits = Object.freeze({ overallMs: 90_000, idleMs: 20_000 });
const POLL_LIMIT = 10;

export function createMessenger(deps: MessengerDeps): Messenger {
  return new MessengerBot(deps);
}

class MessengerBot implements Messenger {
  private readonly now: () => number;
  private readonly restarter: Restarter;
  private link: MessengerLink = 'off';
  private detail = 'off';
  private key: string | undefined;
  private generation = 0;
  private loop: Promise<void> | undefined;
  private controller = new AbortController();
  private turn: AbortController | undefined;
  private paused = false;
  private closed = false;
  private bot: MessengerStatus['bot'] = null;
  private handled = 0;
  private lastError: Stamped | null = null;

  constructor(private readonly deps: MessengerDeps) {
    this.now = deps.now ?? Date.now;
    const schedule = deps.schedule ?? realSchedule;
    this.restarter = createRestarter({ retry: () => this.retry(), schedule, now: this.now });
  }

  apply(): void {
    if (this.closed) return;
    const config = this.deps.settings.current();
    if (!config.enabled || !config.token) {
      this.halt();
      this.restarter.reset();
      this.key = undefined;
      return config.enabled
        ? this.setLink('no_token', 'no bot token: add one in the dashboard')
        : this.setLink('off', 'off');
    }
    const key = botKey(config.apiBaseUrl, config.token);
    if (key === this.key && (this.loop || this.restarter.nextAt() !== null)) {
      // The allowed list may have changed: pairing mode or not.
      if (this.link === 'pairing' || this.link === 'listening') this.connected(null);
      return this.publish();
    }
    this.halt();
    this.restarter.reset();
    this.key = key;
    this.start();
  }

  pause(): void {
    this.paused = true;
    this.turn?.abort(new Error('the messenger was paused (latched stop or demo mode)'));
    this.publish();
  }

  resume(): void {
    this.paused = false;
    this.publish();
  }

  status(): MessengerStatus {
    const retryAt = this.restarter.nextAt();
    const pairing = this.deps.settings.current().allowedChats.length === 0;
    return {
      state: this.paused && this.link !== 'off' ? 'paused' : this.link,
      detail: this.paused && this.link !== 'off' ? `paused (latched stop or demo mode); ${this.detail}` : this.detail,
      bot: this.bot,
      pairing,
      seenChats: this.key ? this.deps.state.seen(this.key) : [],
      handled: this.handled,
      lastError: this.lastError,
      failures: this.restarter.failures(),
      retryAt: retryAt === null ? null : new Date(retryAt).toISOString(),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.halt();
    await this.loop;
  }

  private start(): void {
    const config = this.deps.settings.current();
    if (!config.token || !this.key) return;
    const generation = (this.generation += 1);
    this.controller = new AbortController();
    const api = createBotApi({
      baseUrl: config.apiBaseUrl,
      token: config.token,
      ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
    });
    this.setLink('starting', `connecting to ${config.apiBaseUrl}`);
    const loop = this.run(api, this.key, generation, this.controller.signal)
      .catch((error: unknown) => this.failed(error, generation))
      .finally(() => {
        if (this.loop === loop) this.loop = undefined;
      });
    this.loop = loop;
  }

  private async run(api: BotApi, key: string, generation: number, signal: AbortSignal): Promise<void> {
    const me = await api.getMe(signal);
    this.bot = { username: me.username ?? null, name: me.first_name };
    this.restarter.started();
    this.connected(me.username ? `@${me.username}` : me.first_name);
    while (generation === this.generation) {
      const updates = await api.getUpdates(
        { offset: this.deps.state.offset(key), timeout: this.deps.pollTimeoutS ?? 30, limit: POLL_LIMIT },
        signal,
      );
      for (const update of updates) {
        if (generation !== this.generation) return;
        await this.deps.state.commit(key, update.update_id + 1);
        await this.handle(api, key, update, signal).catch((error: unknown) => this.problem(error, signal));
      }
      this.connected(null);
    }
  }

  private async handle(api: BotApi, key: string, update: BotUpdate, signal: AbortSignal): Promise<void> {
    const message = update.message;
    if (!message) return;
    const chatId = message.chat.id;
    const text = message.text ?? message.caption ?? '';
    await this.deps.state.saw(key, message.chat, text, new Date(this.now()));
    const allowed = this.deps.settings.current().allowedChats;
    if (allowed.length === 0) return void (await api.sendMessage(chatId, pairingReply(chatId), signal));
    if (!allowed.includes(chatId)) return;
    this.handled += 1;
    if (this.paused) return void (await api.sendMessage(chatId, PAUSED_REPLY, signal));
    this.turn = new AbortController();
    try {
      const turnSignal = AbortSignal.any([signal, this.turn.signal]);
      const deps = {
        api,
        runtime: this.deps.runtime,
        agentLog: this.deps.agentLog,
        snapshot: this.deps.snapshot,
        limits: this.deps.limits ?? MESSENGER_LIMITS,
      };
      await handleChatMessage(deps, chatId, text, turnSignal);
    } finally {
      this.turn = undefined;
    }
  }

  /** Polling works: the state says whether it is pairing (the allowed list may have changed). */
  private connected(name: string | null): void {
    const who = name ?? (this.bot?.username ? `@${this.bot.username}` : (this.bot?.name ?? 'the bot'));
    const pairing = this.deps.settings.current().allowedChats.length === 0;
    const first = this.link === 'starting';
    if (pairing) this.setLink('pairing', `${who}: pairing mode, answering any chat with its id`);
    else this.setLink('listening', `${who}: answering allowed chats`);
    if (first) this.row(`Messenger connected as ${who}${pairing ? ' (pairing mode)' : ''}.`, false);
  }

  private failed(error: unknown, generation: number): void {
    if (generation !== this.generation || this.closed) return;
    const message = messageOf(error);
    this.lastError = { text: message, at: new Date(this.now()).toISOString() };
    const seconds = Math.round(this.restarter.failed() / 1000);
    this.deps.log.warn('messenger failed', { error: message });
    this.setLink('failed', `${message}; retrying in ${seconds} s`);
    this.row(`Messenger failed: ${message}; retrying in ${seconds} s`, true);
  }

  /** A reply that could not be sent (the chat blocked the bot...): shown, the loop goes on. */
  private problem(error: unknown, signal: AbortSignal): void {
    if (signal.aborted) return;
    const message = messageOf(error);
    this.lastError = { text: message, at: new Date(this.now()).toISOString() };
    this.deps.log.warn('messenger could not answer', { error: message });
    this.publish();
  }

  private retry(): void {
    if (this.link === 'failed' && !this.closed && !this.loop) this.start();
  }

  private halt(): void {
    this.generation += 1;
    this.controller.abort(new Error('the messenger stopped'));
    this.turn?.abort(new Error('the messenger stopped'));
    this.restarter.cancel();
  }

  private setLink(link: MessengerLink, detail: string): void {
    this.link = link;
    this.detail = detail;
    this.publish();
  }

  private row(text: string, error: boolean): void {
    this.deps.agentLog
      .add({ role: 'assistant', persona: 'messenger', text, ...(error ? { error: true } : {}) })
      .finish();
  }

  private publish(): void {
    this.deps.services?.set('messenger', messengerService(this.status()));
  }
}
