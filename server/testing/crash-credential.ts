/** The passkey record the crash-safety writer stores as number `n` (server/testing/crash-writer.ts). */
import type { StoredCredential } from '../auth/credentials-file.ts';

export function crashCredential(n: number): StoredCredential {
  return {
    id: `cred-${n}`,
    publicKey: 'AQID',
    counter: 0,
    transports: [],
    label: `key ${n}`,
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
    deviceType: 'singleDevice',
    backedUp: false,
  };
}
