/**
 * Sends one notice to every subscription (or every one but the credential that caused it):
 * aes128gcm payload encryption (RFC 8291) and a VAPID signature (RFC 8292) by web-push. A push
 * service answering 404 or 410 says the subscription is gone for good (RFC 8030 §7.3), so it is
 * deleted; any other failure is counted and logged by the push service's origin and status
 * only: an endpoint path is a capability to reach that browser, and never goes into a log.
 *
 * web-push builds the request and this file sends it. The endpoint is any host on the internet a
 * keyed caller named, and web-push's own send bounds only silence (a socket idle timeout) and
 * gathers the whole answer: a service that trickles its answer would hold a send, and the
 * console's test route, for good. Here each push has one deadline, the answer included
 * (server/deadline.ts), and no more than RESPONSE_LIMIT of its body is read.
 */
import { request, type Agent } from 'node:https';
import webpush from 'web-push';
import type { Schedule } from '../clock.ts';
import { withDeadline } from '../deadline.ts';
import type { SendResult } from '../contract/push.ts';
import type { Log } from '../log.ts';
import type { PushPayload } from './kinds.ts';
import { pushAgent } from './push-destination.ts';
import type { StoredSubscription, SubscriptionStore } from './subscriptions.ts';
import type { VapidKeys } from './vapid-keys.ts';

export interface SendOptions {
  /** Skip this credential's subscriptions (the one that caused the notice). */
  except?: string;
  urgent?: boolean;
}

export interface PushSender {
  send(payload: PushPayload, options?: SendOptions): Promise<SendResult>;
}

export interface PushSenderDeps {
  subscriptions: SubscriptionStore;
  vapid: () => { keys: VapidKeys; subject: string };
  log: Log;
  /**
   * TLS agent for the push services; tests pass one that trusts their local authority. The default
   * connects only to addresses on the internet (push-destination.ts).
   */
  agent?: Agent;
  /** One push's deadline, from the connection to the end of the answer (default 10 s). */
  timeoutMs?: number;
  /** The deadline's timer; tests pass a manual clock's. */
  schedule?: Schedule;
}

/** A notice about the robot is stale after a few hours; the push service may drop it then. */
const TTL_SECONDS = 4 * 3600;
const GONE = new Set([404, 410]);

type Outcome = 'sent' | 'gone' | 'failed';

/** A push service answers with a status and, at most, a short reason: more is not read. */
const RESPONSE_LIMIT = 16 * 1024;

/** A failure with the push service's status, as web-push's WebPushError carries it. */
class PushRefused extends Error {
  constructor(readonly statusCode: number) {
    super(`the push service answered ${statusCode}`);
  }
}

/**
 * POSTs web-push's request; resolves with the answer's status once its body has ended, or has
 * run past RESPONSE_LIMIT (then the socket is closed: the status is all that counts).
 */
function post(details: webpush.RequestDetails, agent: Agent, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      details.endpoint,
      { method: details.method, headers: details.headers, agent, signal },
      (answer) => {
        const status = answer.statusCode ?? 0;
        let seen = 0;
        answer.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > RESPONSE_LIMIT) {
            answer.destroy();
            resolve(status);
          }
        });
        answer.on('end', () => resolve(status));
        answer.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(details.body ?? undefined);
  });
}

/** RFC 8030 §5.4: a Topic is at most 32 base64url characters; other tags simply go without one. */
function topicOf(tag: string): string | undefined {
  return /^[A-Za-z0-9_-]{1,32}$/.test(tag) ? tag : undefined;
}

function serviceOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'unknown';
  }
}

export function createPushSender(deps: PushSenderDeps): PushSender {
  const timeout = deps.timeoutMs ?? 10_000;
  const agent = deps.agent ?? pushAgent();

  async function deliver(sub: StoredSubscription, body: string, options: SendOptions, tag: string): Promise<Outcome> {
    const { keys, subject } = deps.vapid();
    const topic = topicOf(tag);
    try {
      const details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: sub.keys }, body, {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: TTL_SECONDS,
        urgency: options.urgent ? 'high' : 'normal',
        contentEncoding: 'aes128gcm',
        ...(topic ? { topic } : {}),
      });
      const status = await withDeadline(timeout, (signal) => post(details, agent, signal), {
        ...(deps.schedule ? { schedule: deps.schedule } : {}),
      });
      if (status < 200 || status > 299) throw new PushRefused(status);
      return 'sent';
    } catch (error) {
      const status = (error as { statusCode?: unknown }).statusCode;
      if (typeof status === 'number' && GONE.has(status)) return 'gone';
      deps.log.warn('push not delivered', {
        service: serviceOf(sub.endpoint),
        status: typeof status === 'number' ? status : null,
        // A WebPushError's message is generic; a socket error's names the host and port only.
        reason: (error as Error)?.message ?? String(error),
      });
      return 'failed';
    }
  }

  return {
    async send(payload, options = {}) {
      const targets = deps.subscriptions.list().filter((s) => s.credential !== options.except);
      const body = JSON.stringify(payload);
      const outcomes = await Promise.all(targets.map((s) => deliver(s, body, options, payload.tag)));
      const gone = targets.filter((_, i) => outcomes[i] === 'gone').map((s) => s.endpoint);
      // The notice went out: a disk that refuses the deletion (full) leaves the gone ones listed,
      // to be deleted at the next notice, and is no failure of this one.
      const pruned =
        gone.length > 0
          ? await deps.subscriptions.remove(gone).catch((error: unknown) => {
              deps.log.warn('gone push subscriptions not deleted', { count: gone.length, error: String(error) });
              return 0;
            })
          : 0;
      if (pruned > 0) deps.log.info('deleted push subscriptions the push service called gone', { count: pruned });
      return {
        sent: outcomes.filter((o) => o === 'sent').length,
        pruned,
        failed: outcomes.filter((o) => o === 'failed').length,
      };
    },
  };
}
