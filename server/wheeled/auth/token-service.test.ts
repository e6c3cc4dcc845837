import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { describeMintedToken, runMintTokenCommand } from '../mint-token-command.ts';
import { JWT_SECRET_FILE } from './jwt-secret.ts';
import { SERVICE_TOKENS_FILE } from './service-tokens.ts';
import { createTokenService, SESSION_TOKEN_TTL_SECONDS } from './token-service.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

describe('token service', () => {
  it('keeps a 0600 secret across restarts, so tokens survive them', async () => {
    const first = await createTokenService({ dataDir: dir, log: silentLog });
    const minted = await first.mintServiceToken({ sub: 'rover-2', name: 'sibling', ttlSeconds: 3600 });
    expect((await stat(join(dir, JWT_SECRET_FILE))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, SERVICE_TOKENS_FILE))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, SERVICE_TOKENS_FILE), 'utf8')).not.toContain(minted.token);
    const second = await createTokenService({ dataDir: dir, log: silentLog });
    expect(second.verify(minted.token)).toMatchObject({
      kind: 'token',
      subject: 'rover-2',
      sessionKey: `service:${minted.id}`,
    });
  });

  it('refuses to replace a damaged secret silently', async () => {
    await writeFile(join(dir, JWT_SECRET_FILE), 'short\n');
    await expect(createTokenService({ dataDir: dir, log: silentLog })).rejects.toThrow(
      /jwt-secret does not hold a usable secret/,
    );
  });

  it('names the file and what is there when the secret is a folder or a pipe, and leaves it be', async () => {
    const file = join(dir, JWT_SECRET_FILE);
    await mkdir(file);
    await expect(createTokenService({ dataDir: dir, log: silentLog })).rejects.toThrow(
      `${file} does not hold a usable secret (a folder, not a file)`,
    );
    expect((await stat(file)).isDirectory()).toBe(true);
    await rmdir(file);
    // A pipe was read for ever: the start hung.
    execFileSync('mkfifo', [file]);
    await expect(createTokenService({ dataDir: dir, log: silentLog })).rejects.toThrow(
      `${file} does not hold a usable secret (not a regular file)`,
    );
  });

  it('expires service tokens at their ttl and revokes them at once', async () => {
    let now = Date.now();
    const tokens = await createTokenService({ dataDir: dir, log: silentLog, now: () => now });
    const minted = await tokens.mintServiceToken({ sub: 'script', name: 'cron', ttlSeconds: 60 });
    expect(tokens.verify(minted.token)).toBeDefined();
    now += 61_000;
    expect(tokens.verify(minted.token)).toBeUndefined();
    now -= 61_000;
    await tokens.revokeServiceToken(minted.id);
    expect(tokens.verify(minted.token)).toBeUndefined();
    expect(await tokens.listServiceTokens()).toEqual([
      expect.objectContaining({ id: minted.id, state: 'revoked', revokedAt: expect.any(Number) }),
    ]);
    expect(await tokens.revokeServiceToken('no-such-id')).toBeUndefined();
  });

  it('validates subject, name and ttl', async () => {
    const tokens = await createTokenService({ dataDir: dir, log: silentLog });
    await expect(tokens.mintServiceToken({ sub: 'has space', name: 'x', ttlSeconds: 60 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(tokens.mintServiceToken({ sub: 'ok', name: '', ttlSeconds: 60 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(tokens.mintServiceToken({ sub: 'ok', name: 'x', ttlSeconds: 59 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('gives a passkey session a short token that ends with the session', async () => {
    const tokens = await createTokenService({ dataDir: dir, log: silentLog });
    const sessionEnds = Date.now() + 3600_000;
    const { token, expiresAt } = await tokens.mintSessionToken({
      sessionKey: 'sess',
      credentialId: 'cred',
      sessionExpiresAt: sessionEnds,
    });
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(SESSION_TOKEN_TTL_SECONDS * 1000);
    // Sockets opened with it live as long as the session, not the token.
    expect(tokens.verify(token)).toMatchObject({
      kind: 'passkey',
      sessionKey: 'sess',
      credentialId: 'cred',
      expiresAt: Math.floor(sessionEnds / 1000) * 1000,
    });
    tokens.endSession('sess');
    expect(tokens.verify(token)).toBeUndefined();
  });

  it('refuses a session token after a restart once its passkey session is gone (a logout persists)', async () => {
    const live = new Set(['sess']);
    const options = { dataDir: dir, log: silentLog, sessionLive: (key: string) => live.has(key) };
    const first = await createTokenService(options);
    const { token } = await first.mintSessionToken({
      sessionKey: 'sess',
      credentialId: 'cred',
      sessionExpiresAt: Date.now() + 3_600_000,
    });
    const restarted = await createTokenService(options);
    expect(restarted.verify(token)).toMatchObject({ kind: 'passkey', sessionKey: 'sess' });
    live.delete('sess');
    expect(restarted.verify(token)).toBeUndefined();
  });
});

describe('mint-token command', () => {
  it('mints a token a running server accepts and lists', async () => {
    const running = await createTokenService({ dataDir: dir, log: silentLog });
    const minted = await runMintTokenCommand({
      dataDir: dir,
      options: { sub: 'thinker', name: 'persona', ttl: '86400' },
    });
    expect(running.verify(minted.token)).toMatchObject({ subject: 'thinker' });
    expect((await running.listServiceTokens()).map((t) => t.id)).toContain(minted.id);
    // A revocation by the server keeps what the command wrote meanwhile.
    const other = await runMintTokenCommand({ dataDir: dir, options: { sub: 'script', name: 'cron', ttl: '60' } });
    await running.revokeServiceToken(minted.id);
    expect((await running.listServiceTokens()).map((t) => [t.id, t.state])).toEqual(
      expect.arrayContaining([
        [minted.id, 'revoked'],
        [other.id, 'active'],
      ]),
    );
    expect(describeMintedToken(minted)).toMatch(/for thinker \("persona"\), valid until/);
  });

  it('explains its options when one is missing or wrong', async () => {
    await expect(runMintTokenCommand({ dataDir: dir, options: { sub: 's', name: 'n' } })).rejects.toThrow(
      /ttlSeconds must be an integer[\s\S]*usage: npm run serve -- mint-token/,
    );
    await expect(runMintTokenCommand({ dataDir: dir, options: { sub: 's', name: 'n', ttl: '1h' } })).rejects.toThrow(
      /usage/,
    );
    await expect(
      runMintTokenCommand({ dataDir: dir, options: { sub: 's', name: 'n', ttl: '60', role: 'x' } }),
    ).rejects.toThrow(/unknown option --role/);
  });
});
