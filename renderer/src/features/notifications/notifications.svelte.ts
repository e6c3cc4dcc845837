/**
 * The notifications card's state: whether this browser is subscribed, the last refusal (shown in
 * the card, never thrown), the shared settings (kinds and the VAPID subject) and a test push.
 * Created by NotificationsCard.svelte; load() runs once the dashboard's credential has proved good.
 */
import type { PushFailure, BrowserPush } from './browser-push.ts';
import type { PushApi, PushKind, PushSettingsView } from './push-api.ts';
import { testNote } from './notifications-format.ts';

export class NotificationsState {
  /** This browser holds a subscription the cockpit knows. */
  enabled = $state(false);
  /** The first refresh has finished. */
  ready = $state(false);
  busy = $state(false);
  /** False where this page can never subscribe (no HTTPS, no push support). */
  possible = $state(true);
  refusal = $state.raw<{ reason: PushFailure; message: string } | null>(null);
  settings = $state.raw<PushSettingsView | null>(null);
  note = $state('');
  readonly #push: BrowserPush;
  readonly #api: PushApi;

  constructor(push: BrowserPush, api: PushApi) {
    this.#push = push;
    this.#api = api;
  }

  async load(): Promise<void> {
    const [device, settings] = await Promise.all([this.#push.refresh(), this.#api.settings()]);
    if (device.ok) this.enabled = device.value.subscribed;
    else {
      this.refusal = device;
      this.possible = device.reason !== 'insecure' && device.reason !== 'unsupported';
    }
    if (settings.ok) this.settings = settings.data;
    this.ready = true;
  }

  /** The switch: asks permission and subscribes, or unsubscribes. */
  async toggle(): Promise<void> {
    this.busy = true;
    this.refusal = null;
    this.note = '';
    const outcome = this.enabled ? await this.#push.disable() : await this.#push.enable();
    if (outcome.ok) this.enabled = !this.enabled;
    else this.refusal = outcome;
    await this.#reloadSettings();
    this.busy = false;
  }

  async setKind(kind: PushKind, on: boolean): Promise<void> {
    await this.#save({ kinds: { [kind]: on } });
  }

  /** Returns the refusal text, or null when saved. */
  async saveSubject(subject: string): Promise<string | null> {
    return this.#save({ subject });
  }

  async test(): Promise<void> {
    this.busy = true;
    const result = await this.#api.test();
    this.note = result.ok ? testNote(result.data) : `The test was not sent: ${result.message}`;
    await this.#reloadSettings();
    this.busy = false;
  }

  async #save(patch: Parameters<PushApi['saveSettings']>[0]): Promise<string | null> {
    this.busy = true;
    const result = await this.#api.saveSettings(patch);
    this.busy = false;
    if (result.ok) {
      this.settings = result.data;
      this.note = 'Saved.';
      return null;
    }
    this.note = `Not saved: ${result.message}`;
    return result.message;
  }

  async #reloadSettings(): Promise<void> {
    const settings = await this.#api.settings();
    if (settings.ok) this.settings = settings.data;
  }
}
