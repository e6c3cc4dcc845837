/**
 * A software WebAuthn authenticator for tests: an ES256 key from node:crypto, authenticator data
 * laid out as WebAuthn §6.1 specifies (rpIdHash, flags, signCount, attested credential data with
 * a COSE key), a "none" attestation object in CBOR, and clientDataJSON as a browser writes it.
 * It lets the passkey service be tested end to end without a browser.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { CborMap, encodeCbor } from './cbor.ts';

/** Per-call overrides to forge wrong or hostile responses. */
export interface Tweak {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** Use this counter instead of the next one. */
  signCount?: number;
  /** Answer even when the options' allowCredentials does not list this credential. */
  ignoreAllowList?: boolean;
}

export interface SoftAuthenticator {
  /** base64url credential id. */
  readonly credentialId: string;
  /** The counter the last assertion carried. */
  readonly signCount: number;
  register(options: PublicKeyCredentialCreationOptionsJSON, tweak?: Tweak): RegistrationResponseJSON;
  login(options: PublicKeyCredentialRequestOptionsJSON, tweak?: Tweak): AuthenticationResponseJSON;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** COSE_Key for an EC2 P-256 ES256 key (RFC 9053 §7.1): kty 2, alg -7, crv 1, x, y. */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x as string, 'base64url');
  const y = Buffer.from(jwk.y as string, 'base64url');
  return encodeCbor(
    new CborMap([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, x],
      [-3, y],
    ]),
  );
}

function authData(rpId: string, flags: number, counter: number, attested?: Uint8Array): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.of(flags), count, ...(attested ? [attested] : [])]);
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

/** Makes an authenticator holding one fresh credential for pages at `origin`. */
export function createSoftAuthenticator(config: { origin: string }): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rawId = randomBytes(16);
  const credentialId = b64url(rawId);
  let counter = 0;

  function register(options: PublicKeyCredentialCreationOptionsJSON, tweak: Tweak = {}): RegistrationResponseJSON {
    if (options.excludeCredentials?.some((c) => c.id === credentialId)) {
      throw new Error('InvalidStateError: this authenticator already holds an excluded credential');
    }
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, coseKey(publicKey)]);
    const rpId = tweak.rpId ?? options.rp.id ?? '';
    const data = authData(rpId, FLAG_UP | FLAG_UV | FLAG_AT, 0, attested);
    const attestationObject = encodeCbor(
      new CborMap([
        ['fmt', 'none'],
        ['attStmt', new CborMap([])],
        ['authData', data],
      ]),
    );
    const cdj = clientData('webauthn.create', tweak.challenge ?? options.challenge, tweak.origin ?? config.origin);
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(cdj), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  function login(options: PublicKeyCredentialRequestOptionsJSON, tweak: Tweak = {}): AuthenticationResponseJSON {
    const allowed = options.allowCredentials ?? [];
    if (!tweak.ignoreAllowList && allowed.length > 0 && !allowed.some((c) => c.id === credentialId)) {
      throw new Error('NotAllowedError: no credential for this request');
    }
    counter = tweak.signCount ?? counter + 1;
    const data = authData(tweak.rpId ?? options.rpId ?? '', FLAG_UP | FLAG_UV, counter);
    const cdj = clientData('webauthn.get', tweak.challenge ?? options.challenge, tweak.origin ?? config.origin);
    // ECDSA signatures in WebAuthn are DER-encoded, which is node's default for EC keys.
    const signature = sign('sha256', Buffer.concat([data, sha256(cdj)]), privateKey);
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(cdj), authenticatorData: b64url(data), signature: b64url(signature) },
    };
  }

  return {
    credentialId,
    get signCount() {
      return counter;
    },
    register,
    login,
  };
}
