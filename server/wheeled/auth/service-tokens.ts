/**
 * The register of minted service tokens, `<dataDir>/service-tokens.json` (0600): id, subject,
 * name and times, never the token itself (it is a JWT only the secret can make). `mint-token`
 * on the command line writes here while the server may be running, so every change re-reads
 * the file first instead of trusting a copy in memory, and listing reads it too.
 */
import { join } from 'node:path';
import type { Log } from '../../log.ts';
import { createJsonDocument } from '../../store/json-document.ts';

export const SERVICE_TOKENS_FILE = 'service-tokens.json';
/** Records are dropped this long after their token expired. */
const KEEP_EXPIRED_MS = 30 * 86_400_000;

export interface ServiceTokenRecord {
  id: string;
  sub: string;
  name: string;
  /** Epoch ms. */
  createdAt: number;
  expiresAt: number;
  revokedAt?: number;
}

interface TokensFile {
  version: 1;
  tokens: ServiceTokenRecord[];
}

export interface ServiceTokenRegistry {
  /** Reads the file; the revoked ids are kept in memory for the synchronous check. */
  load(): Promise<readonly ServiceTokenRecord[]>;
  add(record: ServiceTokenRecord): Promise<void>;
  /** Marks a token revoked; undefined when the id is unknown. */
  revoke(id: string, at: number): Promise<ServiceTokenRecord | undefined>;
  isRevoked(id: string): boolean;
}

function isRecord(u: unknown): u is ServiceTokenRecord {
  if (typeof u !== 'object' || u === null) return false;
  const r = u as Record<string, unknown>;
  return (
    typeof r.id === 'string' &&
    typeof r.sub === 'string' &&
    typeof r.name === 'string' &&
    Number.isFinite(r.createdAt) &&
    Number.isFinite(r.expiresAt) &&
    (r.revokedAt === undefined || Number.isFinite(r.revokedAt))
  );
}

function validate(u: unknown): TokensFile | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const f = u as Record<string, unknown>;
  if (f.version !== 1 || !Array.isArray(f.tokens) || !f.tokens.every(isRecord)) return undefined;
  return { version: 1, tokens: f.tokens };
}

export function createServiceTokenRegistry(options: {
  dataDir: string;
  log: Log;
  now?: () => number;
}): ServiceTokenRegistry {
  const now = options.now ?? Date.now;
  const file = join(options.dataDir, SERVICE_TOKENS_FILE);
  let revoked = new Set<string>();
  // One change at a time inside this process; the fresh read picks up other processes' writes.
  let queue: Promise<unknown> = Promise.resolve();

  const open = async () => {
    const doc = createJsonDocument<TokensFile>({
      file,
      defaults: () => ({ version: 1, tokens: [] }),
      validate,
      log: options.log,
    });
    const value = await doc.load();
    revoked = new Set(value.tokens.filter((t) => t.revokedAt !== undefined).map((t) => t.id));
    return { doc, value };
  };
  const change = <T>(fn: (tokens: ServiceTokenRecord[]) => { tokens: ServiceTokenRecord[]; result: T }): Promise<T> => {
    const run = queue.then(async () => {
      const { doc, value } = await open();
      const cutoff = now() - KEEP_EXPIRED_MS;
      const { tokens, result } = fn(value.tokens.filter((t) => t.expiresAt > cutoff));
      await doc.save({ version: 1, tokens });
      revoked = new Set(tokens.filter((t) => t.revokedAt !== undefined).map((t) => t.id));
      return result;
    });
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    load: async () => (await open()).value.tokens,
    add: (record) => change((tokens) => ({ tokens: [...tokens, record], result: undefined })),
    revoke: (id, at) =>
      change((tokens) => {
        const found = tokens.find((t) => t.id === id);
        if (!found) return { tokens, result: undefined };
        const updated = { ...found, revokedAt: found.revokedAt ?? at };
        return { tokens: tokens.map((t) => (t.id === id ? updated : t)), result: updated };
      }),
    isRevoked: (id) => revoked.has(id),
  };
}
