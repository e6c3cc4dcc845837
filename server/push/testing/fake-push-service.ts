/**
 * A push service double for tests (docs/testing.md, "Rules": a faithful server of the documented
 * protocol). HTTPS with a certificate from a throwaway local authority, so web-push must be told
 * to trust it (`agent`). Each push is checked the way a real service checks it: POST to a known
 * subscription, `Content-Encoding: aes128gcm`, a TTL (RFC 8030 §5.2), and a VAPID token valid for
 * this origin (RFC 8292); then the body is decrypted with the subscription's private key as the
 * browser would (RFC 8291). Accepted pushes answer 201 (RFC 8030 §5); a subscription can be made
 * to answer 404 or 410 (gone) or any other status.
 */
import { randomBytes } from 'node:crypto';
import type { LookupOptions } from 'node:dns';
import { Agent, createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupCallback } from '../push-destination.ts';
import { createCaCertificate, generateRsaKeyPair, issueServerCertificate } from '../../auth/tls-certs.ts';
import { verifyVapid, type VapidClaims } from './vapid-verify.ts';
import { createReceiver, decryptAes128gcm, subscriptionOf, type Receiver } from './web-push-receiver.ts';

export interface ReceivedPush {
  endpoint: string;
  /** The decrypted payload, parsed as JSON. */
  payload: Record<string, unknown>;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  claims: VapidClaims;
  /** The k= of the Authorization header: the sender's VAPID public key. */
  vapidKey: string;
}

export interface FakePushService {
  /** e.g. https://fake-push.example:40123 (a public-looking name; `agent` resolves it to 127.0.0.1) */
  readonly origin: string;
  /**
   * An https.Agent that trusts this service's certificate authority and resolves its name to
   * 127.0.0.1 (web-push's `agent`).
   */
  readonly agent: Agent;
  /** A new "browser": its subscription JSON and its private receiver keys. */
  subscribe(): { subscription: ReturnType<typeof subscriptionOf>; receiver: Receiver };
  /** Pushes to this endpoint get `status` from now on (404/410: gone; 500: failing). */
  answer(endpoint: string, status: number): void;
  /** Pushes to this endpoint are answered by `respond` from now on (a service that trickles, or floods). */
  respond(endpoint: string, respond: (res: ServerResponse) => void): void;
  readonly received: ReceivedPush[];
  /** Pushes refused for breaking the protocol, with the reason: a test expects none. */
  readonly refused: { endpoint: string; reason: string }[];
  /** Resolves with the first push (already received or still to come) matching `match`. */
  next(match?: (push: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The service's host name. The cockpit takes subscriptions only on a push service's host, never
 * an IP address or localhost (push-destination.ts); `.example` is reserved and never resolves.
 */
export const FAKE_PUSH_HOST = 'fake-push.example';

/** The test agent's `lookup`: this service's name is 127.0.0.1, every other name is unknown. */
function lookupFake(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (hostname !== FAKE_PUSH_HOST) {
    const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    error.code = 'ENOTFOUND';
    return callback(error, []);
  }
  if (options.all === true) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}

function tlsMaterial() {
  const now = Date.now();
  const caKeys = generateRsaKeyPair();
  const caCertPem = createCaCertificate(caKeys, now, 'Fake push service CA');
  const leaf = generateRsaKeyPair();
  const certPem = issueServerCertificate({
    caCertPem,
    caKeyPem: caKeys.privateKeyPem,
    serverPublicKeyPem: leaf.publicKeyPem,
    hostNames: [FAKE_PUSH_HOST],
    addresses: ['127.0.0.1'],
    now,
  });
  return { caCertPem, certPem, keyPem: leaf.privateKeyPem };
}

export async function startFakePushService(): Promise<FakePushService> {
  const tls = tlsMaterial();
  const receivers = new Map<string, Receiver>();
  const answers = new Map<string, number>();
  const responders = new Map<string, (res: ServerResponse) => void>();
  const received: ReceivedPush[] = [];
  const refused: { endpoint: string; reason: string }[] = [];
  const waiters = new Set<() => void>();
  let origin = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const endpoint = `${origin}${req.url ?? ''}`;
    const body = await readBody(req);
    const receiver = receivers.get(endpoint);
    const refuse = (status: number, reason: string) => {
      refused.push({ endpoint, reason });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
    };
    if (req.method !== 'POST' || !receiver) return refuse(404, 'no such subscription');
    const status = answers.get(endpoint);
    if (status !== undefined) return void res.writeHead(status).end();
    const respond = responders.get(endpoint);
    if (respond) return respond(res);
    if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, 'content encoding must be aes128gcm');
    const ttl = Number(req.headers['ttl']);
    if (!Number.isInteger(ttl) || ttl < 0) return refuse(400, 'TTL header missing or invalid');
    let claims: VapidClaims;
    try {
      claims = await verifyVapid(req.headers.authorization, origin, Date.now());
    } catch (error) {
      return refuse(403, `VAPID: ${(error as Error).message}`);
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(decryptAes128gcm(body, receiver).toString('utf8')) as Record<string, unknown>;
    } catch (error) {
      return refuse(400, `payload: ${(error as Error).message}`);
    }
    const vapidKey = /k=([A-Za-z0-9_-]+)/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const header = (name: string) =>
      typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined;
    received.push({ endpoint, payload, ttl, urgency: header('urgency'), topic: header('topic'), claims, vapidKey });
    for (const wake of waiters) wake();
    res.writeHead(201, { location: `${origin}/message/${randomBytes(8).toString('hex')}` }).end();
  }

  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://${FAKE_PUSH_HOST}:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ ca: tls.caCertPem, keepAlive: false, lookup: lookupFake });

  return {
    origin,
    agent,
    received,
    refused,
    subscribe() {
      const receiver = createReceiver();
      const endpoint = `${origin}/push/${randomBytes(12).toString('base64url')}`;
      receivers.set(endpoint, receiver);
      return { subscription: subscriptionOf(endpoint, receiver), receiver };
    },
    answer(endpoint, status) {
      answers.set(endpoint, status);
    },
    respond(endpoint, respond) {
      responders.set(endpoint, respond);
    },
    next(match = () => true, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching push within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
