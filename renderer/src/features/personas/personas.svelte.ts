/**
 * The personas card's state: the view of both personas (GET /api/console/personas), refreshed
 * when their lines in the state frame's services change and, while the bot is pairing, every
 * few seconds (a stranger writing to it changes no service line); the saves and switches with
 * their pending and refused states.
 */
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { MessengerPersonaView, PersonasView, VoicePersonaView } from '../../../../server/contract/index.ts';
import type { PersonasApi } from './personas-api.ts';

export type PendingKey = 'voice' | 'messenger' | `chat:${number}`;

export class Personas {
  view = $state.raw<PersonasView | null>(null);
  pending = $state<Partial<Record<PendingKey, boolean>>>({});
  problem = $state('');
  readonly #api: PersonasApi;

  constructor(api: PersonasApi) {
    this.#api = api;
  }

  async load(): Promise<void> {
    const result = await this.#api.load();
    if (result.ok && result.data) this.view = result.data;
  }

  /** PUT voice settings (a switch, mute, or the form); returns the refusal message, or ''. */
  saveVoice(body: object): Promise<string> {
    return this.#run(
      'voice',
      () => this.#api.saveVoice(body),
      (voice) => this.#set({ voice }),
    );
  }

  saveMessenger(body: object): Promise<string> {
    return this.#run(
      'messenger',
      () => this.#api.saveMessenger(body),
      (messenger) => this.#set({ messenger }),
    );
  }

  allow(chatId: number): Promise<string> {
    return this.#run(
      `chat:${chatId}`,
      () => this.#api.allowChat(chatId),
      (messenger) => this.#set({ messenger }),
    );
  }

  remove(chatId: number): Promise<string> {
    return this.#run(
      `chat:${chatId}`,
      () => this.#api.removeChat(chatId),
      (messenger) => this.#set({ messenger }),
    );
  }

  #set(part: { voice?: VoicePersonaView; messenger?: MessengerPersonaView }): void {
    if (this.view) this.view = { ...this.view, ...part };
  }

  async #run<T>(key: PendingKey, call: () => Promise<ApiResult<T | null>>, apply: (data: T) => void): Promise<string> {
    this.pending[key] = true;
    this.problem = '';
    const result = await call();
    this.pending[key] = false;
    if (!result.ok) {
      this.problem = result.message;
      return result.message;
    }
    if (result.data) apply(result.data);
    return '';
  }
}
