/**
 * The browser's side of Web Push, for tests: a receiver key pair and authentication secret (what
 * PushManager.subscribe makes), and the decryption of an aes128gcm message body (RFC 8291 §3.4
 * key schedule over the RFC 8188 content coding), written straight from the RFCs with node:crypto
 * so it checks web-push rather than repeating it.
 */
import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';

export interface Receiver {
  /** The receiver's P-256 private key (32 bytes). Never leaves the "browser". */
  privateKey: Buffer;
  /** ua_public: the uncompressed point (65 bytes), sent as keys.p256dh. */
  publicKey: Buffer;
  /** auth_secret (16 bytes), sent as keys.auth. */
  authSecret: Buffer;
}

export function createReceiver(): Receiver {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { privateKey: ecdh.getPrivateKey(), publicKey: ecdh.getPublicKey(), authSecret: randomBytes(16) };
}

/** The receiver as PushSubscription.toJSON() shows it. */
export function subscriptionOf(endpoint: string, receiver: Receiver) {
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: receiver.publicKey.toString('base64url'), auth: receiver.authSecret.toString('base64url') },
  };
}

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number): Buffer =>
  Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/** RFC 8188 §2.3: the record's nonce is the base nonce XOR its sequence number (96-bit, big-endian). */
function recordNonce(base: Buffer, seq: number): Buffer {
  // A test body has a handful of records: the low 32 bits carry every sequence number it needs.
  const nonce = Buffer.from(base);
  nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
  return nonce;
}

/**
 * Decrypts an aes128gcm body. Throws with the step that failed: a wrong key schedule shows up
 * as an authentication failure, a wrong header as a format error.
 */
export function decryptAes128gcm(body: Buffer, receiver: Receiver): Buffer {
  // RFC 8188 §2.1 header: salt (16) | rs (uint32) | idlen (1) | keyid (idlen).
  if (body.length < 21) throw new Error('aes128gcm: body shorter than its header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20] as number;
  // RFC 8291 §4: the keyid is the sender's ephemeral public key, an uncompressed P-256 point.
  if (idlen !== 65) throw new Error(`aes128gcm: keyid of ${idlen} bytes, not a 65-byte P-256 key`);
  if (rs < 18) throw new Error('aes128gcm: record size below 18');
  const asPublic = body.subarray(21, 21 + idlen);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(receiver.privateKey);
  const ecdhSecret = ecdh.computeSecret(asPublic);
  // RFC 8291 §3.4: key_info = "WebPush: info" || 0x00 || ua_public || as_public.
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.publicKey, asPublic]);
  const ikm = hkdf(ecdhSecret, receiver.authSecret, keyInfo, 32);
  const cek = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
  const records = body.subarray(21 + idlen);
  const parts: Buffer[] = [];
  for (let offset = 0, seq = 0; offset < records.length; offset += rs, seq += 1) {
    const record = records.subarray(offset, offset + rs);
    const last = offset + rs >= records.length;
    const decipher = createDecipheriv('aes-128-gcm', cek, recordNonce(nonce, seq));
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    parts.push(unpad(padded, last));
  }
  return Buffer.concat(parts);
}

/** RFC 8188 §2: data, then a delimiter (2 in the last record, 1 before), then zeros. */
function unpad(padded: Buffer, last: boolean): Buffer {
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  const delimiter = padded[end];
  if (delimiter !== (last ? 2 : 1)) throw new Error(`aes128gcm: record delimiter ${String(delimiter)}`);
  return padded.subarray(0, end);
}
