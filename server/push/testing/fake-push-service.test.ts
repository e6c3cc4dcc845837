/**
 * The push service double against the documented examples: RFC 8291 §5 (a message only the
 * example's receiver key can read) and RFC 8292 §2.4 (a token signed by the example's key), then
 * against web-push itself, including the refusals a real service gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { startFakePushService, type FakePushService } from './fake-push-service.ts';
import { parseVapidHeader, verifyVapid } from './vapid-verify.ts';
import { decryptAes128gcm } from './web-push-receiver.ts';

const b64 = (text: string) => Buffer.from(text, 'base64url');

/** RFC 8291 §5 and Appendix A. */
const RFC8291 = {
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  authSecret: 'BTBZMqHH6r4Tts7J_aSIgg',
  body:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_' +
    'yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

/** RFC 8292 §2.4: header, claims and signature of the example token, and its key. */
const RFC8292 = {
  token: [
    'eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9',
    'eyJhdWQiOiJodHRwczovL3B1c2guZXhhbXBsZS5uZXQiLCJleHAiOjE0NTM1MjM3NjgsInN1YiI6Im1haWx0bzpwdXNoQGV4YW1wbGUuY29tIn0',
    'i3CYb7t4xfxCDquptFOepC9GAu_HLGkMlMuCGSK2rpiUfnK9ojFwDXb1JrErtmysazNjjvW2L9OkSSHzvoD1oA',
  ].join('.'),
  key: 'BA1Hxzyi1RUM1b5wjxsn7nGxAszw2u61m164i3MrAIxHF6YK5h4SDYic-dRuU_RCPCfA5aq9ojSwk5Y2EmClBPs',
  exp: 1453523768,
};

describe('the documented examples', () => {
  it('decrypts the RFC 8291 example message with the example receiver', () => {
    const receiver = {
      privateKey: b64(RFC8291.uaPrivate),
      publicKey: b64(RFC8291.uaPublic),
      authSecret: b64(RFC8291.authSecret),
    };
    expect(decryptAes128gcm(b64(RFC8291.body), receiver).toString()).toBe('When I grow up, I want to be a watermelon');
    const wrongSecret = { ...receiver, authSecret: Buffer.alloc(16, 1) };
    expect(() => decryptAes128gcm(b64(RFC8291.body), wrongSecret)).toThrow(/auth/i);
  });

  it('verifies the RFC 8292 example token before it expires, and only for its audience', async () => {
    const header = `vapid t=${RFC8292.token}, k=${RFC8292.key}`;
    expect(parseVapidHeader(header)).toEqual({ token: RFC8292.token, key: RFC8292.key });
    const before = (RFC8292.exp - 3600) * 1000;
    await expect(verifyVapid(header, 'https://push.example.net', before)).resolves.toMatchObject({
      aud: 'https://push.example.net',
      exp: RFC8292.exp,
      sub: 'mailto:push@example.com',
    });
    await expect(verifyVapid(header, 'https://push.example.net', (RFC8292.exp + 1) * 1000)).rejects.toThrow(/exp/);
    await expect(verifyVapid(header, 'https://other.example', before)).rejects.toThrow(/aud/);
    // Signed more than 24 hours ahead of "now": refused (RFC 8292 §2).
    await expect(verifyVapid(header, 'https://push.example.net', (RFC8292.exp - 2 * 86400) * 1000)).rejects.toThrow(
      /24 hours/,
    );
    const forged = header.replace(RFC8292.key, RFC8291.uaPublic);
    await expect(verifyVapid(forged, 'https://push.example.net', before)).rejects.toThrow(/signature/);
    await expect(verifyVapid(`WebPush ${RFC8292.token}`, 'https://push.example.net', before)).rejects.toThrow(/vapid/);
  });
});

describe('against web-push', () => {
  let service: FakePushService;
  const vapid = webpush.generateVAPIDKeys();
  const vapidDetails = { subject: 'mailto:owner@robot.invalid', ...vapid };

  beforeAll(async () => {
    service = await startFakePushService();
  });
  afterAll(() => service.close());

  it('accepts, decrypts and verifies a real web-push message', async () => {
    const { subscription } = service.subscribe();
    const result = await webpush.sendNotification(
      subscription,
      JSON.stringify({ title: 'Hi', body: 'there', url: '/' }),
      {
        vapidDetails,
        TTL: 60,
        urgency: 'high',
        topic: 'daemon',
        agent: service.agent,
      },
    );
    expect(result.statusCode).toBe(201);
    const push = await service.next((p) => p.endpoint === subscription.endpoint);
    expect(push).toMatchObject({
      payload: { title: 'Hi', body: 'there', url: '/' },
      ttl: 60,
      urgency: 'high',
      topic: 'daemon',
      vapidKey: vapid.publicKey,
      claims: { aud: service.origin, sub: 'mailto:owner@robot.invalid' },
    });
    expect(service.refused).toEqual([]);
  });

  it('answers gone for a subscription told to, and refuses pushes that break the protocol', async () => {
    const { subscription } = service.subscribe();
    service.answer(subscription.endpoint, 410);
    await expect(
      webpush.sendNotification(subscription, 'x', { vapidDetails, agent: service.agent }),
    ).rejects.toMatchObject({ statusCode: 410 });

    const other = service.subscribe().subscription;
    const wrongKeys = { ...other, keys: service.subscribe().subscription.keys };
    await expect(
      webpush.sendNotification(wrongKeys, 'x', { vapidDetails, agent: service.agent }),
    ).rejects.toMatchObject({
      statusCode: 400,
    });
    const unsigned = await fetchWithAgent(other.endpoint, service);
    expect(unsigned).toBe(415);
    expect(service.refused.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^payload: /),
      'content encoding must be aes128gcm',
    ]);
    service.refused.length = 0;
  });
});

/** A bare POST with no encryption or VAPID, over the trusted agent. */
async function fetchWithAgent(endpoint: string, service: FakePushService): Promise<number> {
  const { request } = await import('node:https');
  return new Promise((resolve, reject) => {
    const req = request(endpoint, { method: 'POST', agent: service.agent }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('plain');
  });
}
