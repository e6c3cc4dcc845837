/**
 * The platform card's state: the status (GET once linked, then `platform` frames), the console
 * actions (enrolment, the link, firmware choices, the owner session) with their pending and
 * refused states, and the platform's notices as toasts (plus a system notification where the
 * person has allowed them; the page never asks on its own).
 */
import type {
  PlatformEndpointEnrolBody,
  PlatformEndpointEnrolled,
  PlatformEnrolInput,
  PlatformNotice,
  PlatformSessionEnrolInput,
  ServerFrame,
} from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import {
  readNotice,
  readPlatformStatus,
  type ConsolePlatformStatus,
  type PlatformApi,
} from '../../lib/api/platform-api.ts';
import { PushedOrAnswered } from '../../lib/api/pushed-or-answered.ts';

export interface Toast extends PlatformNotice {
  id: number;
}

export type NoticePermission = NotificationPermission | 'unsupported';

const TOAST_MS = 10_000;
const MAX_TOASTS = 3;

function browserPermission(): NoticePermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export class Platform {
  status = $state.raw<ConsolePlatformStatus | null>(null);
  /** What is being done right now (for the buttons), or ''. */
  pending = $state('');
  problem = $state('');
  toasts = $state.raw<Toast[]>([]);
  permission = $state<NoticePermission>(browserPermission());
  /** The endpoint device created from this page, until the page is reloaded. */
  endpoint = $state.raw<PlatformEndpointEnrolled | null>(null);
  readonly #api: PlatformApi;
  /** The status comes both ways: an answer overtaken by a frame is not shown (pushed-or-answered.ts). */
  readonly #statusOrder = new PushedOrAnswered();
  #nextToast = 1;
  #timers: ReturnType<typeof setTimeout>[] = [];

  constructor(api: PlatformApi) {
    this.#api = api;
  }

  hear(frame: ServerFrame): void {
    if (frame.type === 'platform') {
      this.#statusOrder.pushed();
      this.status = readPlatformStatus(frame) ?? this.status;
    } else if (frame.type === 'notify') {
      const notice = readNotice(frame);
      if (notice) this.#show(notice);
    }
  }

  async load(): Promise<void> {
    const { answer: result, stale } = await this.#statusOrder.ask(() => this.#api.status());
    if (result.ok && result.data && !stale) this.status = result.data;
  }

  /** The token is the caller's to forget; this only forwards it once. */
  enrol(input: PlatformEnrolInput): Promise<boolean> {
    return this.#run('Enrolling', () => this.#api.enrol(input));
  }

  /** As enrol: the session token is the caller's to forget. */
  enrolWithSession(input: PlatformSessionEnrolInput): Promise<boolean> {
    return this.#run('Enrolling', () => this.#api.enrolWithSession(input));
  }

  setConnected(on: boolean): Promise<boolean> {
    return this.#run(on ? 'Connecting' : 'Disconnecting', () => (on ? this.#api.connect() : this.#api.disconnect()));
  }

  forget(): Promise<boolean> {
    return this.#run('Forgetting', () => this.#api.forget());
  }

  setChannel(channel: string): Promise<boolean> {
    return this.#run('Setting the channel', () => this.#api.setFirmware({ channel }));
  }

  setInstallAllowed(installAllowed: boolean): Promise<boolean> {
    return this.#run('Saving the install choice', () => this.#api.setFirmware({ installAllowed }));
  }

  /** The token is the caller's to forget; the cockpit proves it on the platform before keeping it. */
  setOwnerSession(token: string): Promise<boolean> {
    return this.#run('Checking the session token', () => this.#api.setOwnerSession(token));
  }

  /** Re-keys the robot through the stored owner session after its token was rotated. */
  adopt(): Promise<boolean> {
    return this.#run('Adopting a new token', () => this.#api.adopt());
  }

  /** As enrol: the session token is the caller's to forget. */
  async enrolEndpoint(input: PlatformEndpointEnrolBody): Promise<boolean> {
    this.pending = 'Adding the endpoint';
    this.problem = '';
    const result = await this.#api.enrolEndpoint(input);
    this.pending = '';
    if (!result.ok) {
      this.problem = result.message;
      return false;
    }
    this.endpoint = result.data;
    return true;
  }

  forgetOwnerSession(): Promise<boolean> {
    return this.#run('Removing the session token', () => this.#api.forgetOwnerSession());
  }

  async allowNotifications(): Promise<void> {
    if (typeof Notification === 'undefined') return;
    this.permission = await Notification.requestPermission();
  }

  dismiss(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }

  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
  }

  async #run(doing: string, call: () => Promise<ApiResult<ConsolePlatformStatus | null>>): Promise<boolean> {
    this.pending = doing;
    this.problem = '';
    const { answer: result, stale } = await this.#statusOrder.ask(call);
    this.pending = '';
    if (!result.ok) {
      this.problem = result.message;
      return false;
    }
    if (result.data && !stale) this.status = result.data;
    return true;
  }

  #show(notice: PlatformNotice): void {
    const toast = { ...notice, id: this.#nextToast++ };
    this.toasts = [...this.toasts, toast].slice(-MAX_TOASTS);
    const timer = setTimeout(() => {
      this.#timers = this.#timers.filter((t) => t !== timer);
      this.dismiss(toast.id);
    }, TOAST_MS);
    this.#timers.push(timer);
    // The Electron shell raises a native notification for every notice itself.
    if (this.permission === 'granted' && !navigator.userAgent.includes('Electron')) {
      new Notification(notice.title, { body: notice.body, ...(notice.tag ? { tag: notice.tag } : {}) });
    }
  }
}
