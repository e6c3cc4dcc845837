/**
 * Web Push to the owner's browsers and phone, composed once for the desktop server: the VAPID
 * keys, the settings and the subscriptions on disk, the sender, and the trigger module fed by a
 * health sample every second, by what the features tell the dashboards (resume receipts, platform
 * notify frames), by each latched stop with who pressed it (Control's onStop) and by the agent's
 * finished turns. Plain functions over injected deps: no Koa here; push-routes.ts is the HTTP edge.
 */
import type { Agent as HttpsAgent } from 'node:https';
import type { Agent } from '../agent/agent.ts';
import type { Health } from '../contract/health.ts';
import type { PushSettingsPatch, PushSettingsView, SendResult } from '../contract/push.ts';
import type { CredentialKind } from '../contract/ws.ts';
import { AppError } from '../errors.ts';
import { storageFailed } from '../store/storage-failed.ts';
import { subscriberOf } from './credential.ts';
import type { Log } from '../log.ts';
import { payloadOf, type PushNotice } from './kinds.ts';
import { createPushSender } from './push-sender.ts';
import { applyPatch, createSettingsStore } from './push-settings.ts';
import { createPushTriggers, type HealthSample, type TriggerEvent, type TriggerTimings } from './push-triggers.ts';
import type { SubscriptionInput } from './subscription-input.ts';
import { createSubscriptionStore } from './subscriptions.ts';
import { watchTurns } from './turn-watch.ts';
import { loadVapidKeys, type VapidKeys } from './vapid-keys.ts';

/** Tuning, for tests mostly: the defaults are the product's. */
export interface PushOptions {
  timings?: Partial<TriggerTimings>;
  /** How often health is sampled (1000 ms). */
  tickMs?: number;
  /** TLS agent for the push services; tests pass one that trusts a local authority. */
  agent?: HttpsAgent;
  now?: () => number;
}

export interface PushDeps extends PushOptions {
  robot: { health(): Health };
  /** How many dashboards are open (the hub's /ws clients): a finished turn is pushed only to an empty room. */
  viewers: () => number;
  dataDir: string;
  log: Log;
}

/** What the console routes call. */
export interface PushConsole {
  publicKey(): string;
  subscribe(credential: string, input: SubscriptionInput): Promise<{ replaced: boolean }>;
  unsubscribe(endpoint: string): Promise<{ removed: boolean }>;
  /** Sends a test notice to every subscription. */
  test(): Promise<SendResult>;
  settings(credential: string): PushSettingsView;
  updateSettings(credential: string, patch: PushSettingsPatch): Promise<PushSettingsView>;
}

export interface Push extends PushConsole {
  /** Every frame the features broadcast to /ws: resume receipts, notify frames. */
  observe(frame: object): void;
  /**
   * A latched stop and who pressed it (Control's onStop): its push skips that credential's own
   * devices, down to the passkey, which the receipt on /ws does not name.
   */
  stopped(stop: { credential: CredentialKind; credentialId: string | undefined }): void;
  /** The agent with its turn doors reporting to the triggers. */
  watchTurns(agent: Agent): Agent;
  /** Loads keys, settings and subscriptions, then samples health every tick. */
  start(): Promise<void>;
  stop(): void;
  /** Settles once every notice handed to the sender so far has been sent or has failed. */
  idle(): Promise<void>;
}

/** The daemon as the triggers see it: a stopped backend is as much an outage as silence. */
export function sampleOf(health: Health): HealthSample {
  const { daemon } = health;
  const state = !daemon.reachable
    ? 'unreachable'
    : daemon.state !== null && daemon.state !== 'running'
      ? 'stopped'
      : 'up';
  return { daemon: state, where: daemon.simulated ? 'the simulator' : daemon.url, camera: health.camera.status };
}

export function createPush(deps: PushDeps): Push {
  const now = deps.now ?? Date.now;
  const settings = createSettingsStore(deps);
  const subscriptions = createSubscriptionStore(deps);
  const triggers = createPushTriggers(deps.timings);
  const pending = new Set<Promise<void>>();
  let keys: VapidKeys | undefined;
  /** Why start() could not read or write push's files; the console routes answer with it. */
  let problem: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const ready = (): VapidKeys => {
    if (keys) return keys;
    throw new AppError('STORAGE_FAILED', `push notifications are off: ${problem ?? 'not started yet'}`);
  };

  const sender = createPushSender({
    subscriptions,
    vapid: () => ({ keys: keys as VapidKeys, subject: settings.get().subject }),
    log: deps.log,
    ...(deps.agent ? { agent: deps.agent } : {}),
  });

  function dispatch(notices: PushNotice[]): void {
    // Before start() nothing is loaded and no browser can have asked for anything yet.
    if (!keys) return;
    for (const notice of notices) {
      if (!settings.get().kinds[notice.kind]) continue;
      const sending = sender
        .send(payloadOf(notice), { except: notice.exceptCredential, urgent: notice.urgent })
        .then((result) => deps.log.info('push sent', { kind: notice.kind, ...result }))
        .catch((error: unknown) => deps.log.warn('push failed', { kind: notice.kind, error: String(error) }))
        .finally(() => pending.delete(sending));
      pending.add(sending);
    }
  }

  const event = (e: TriggerEvent) => dispatch(triggers.event(e, now()));
  const view = (credential: string): PushSettingsView => {
    ready();
    const list = subscriptions.list();
    const { subject, kinds } = settings.get();
    return {
      subject,
      kinds,
      subscriptions: { total: list.length, yours: list.filter((s) => s.credential === credential).length },
    };
  };

  return {
    publicKey: () => ready().publicKey,
    subscribe: async (credential, input) => {
      ready();
      return subscriptions.add(credential, input).catch((error: unknown) => {
        throw storageFailed(error, 'the subscription could not be saved; nothing changed');
      });
    },
    unsubscribe: async (endpoint) => {
      ready();
      const removed = await subscriptions.remove([endpoint]).catch((error: unknown) => {
        throw storageFailed(error, 'the subscription could not be deleted; nothing changed');
      });
      return { removed: removed > 0 };
    },
    test: async () => {
      ready();
      return sender.send(
        payloadOf({
          title: 'Robot Cockpit test',
          body: 'Notifications from the robot reach this device.',
          // The dashboard's notification settings, where the test was asked for.
          url: '/#/settings/notifications',
          tag: 'test',
        }),
      );
    },
    settings: view,
    async updateSettings(credential, patch) {
      ready();
      await settings
        .update((current) => applyPatch(current, patch))
        .catch((error: unknown) => {
          throw storageFailed(error, 'the settings could not be saved; nothing changed');
        });
      return view(credential);
    },
    observe(frame) {
      const f = frame as Record<string, unknown>;
      if (f.type === 'notify') {
        const text = (k: string) => (typeof f[k] === 'string' ? (f[k] as string) : '');
        event({ type: 'notice', title: text('title'), body: text('body'), tag: text('tag'), url: text('url') });
      } else if (f.type === 'event' && f.action === 'resume') {
        event({ type: 'resume' });
      }
    },
    watchTurns: (agent) => watchTurns(agent, (turn) => event({ type: 'turn', ...turn, viewers: deps.viewers() })),
    stopped: ({ credential, credentialId }) =>
      event({ type: 'stop', credential: subscriberOf({ kind: credential, credentialId }), by: credential }),
    async start() {
      let loaded: VapidKeys;
      try {
        loaded = await loadVapidKeys(deps);
        await settings.load();
        await subscriptions.load(loaded.publicKey);
      } catch (error) {
        // The robot does not need its notices: a data dir that refuses push's files (a full disk
        // when the key pair is first made) leaves push off and says why, and the cockpit starts.
        problem = String(error);
        deps.log.error('push notifications off: their files could not be read or written', { error: problem });
        return;
      }
      keys = loaded;
      const tick = () => {
        // A timer callback that threw would take the whole cockpit down: a push is not worth that.
        try {
          dispatch(triggers.observe(sampleOf(deps.robot.health()), now()));
        } catch (error) {
          deps.log.warn('push health sample failed', { error: String(error) });
        }
      };
      timer = setInterval(tick, deps.tickMs ?? 1000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
