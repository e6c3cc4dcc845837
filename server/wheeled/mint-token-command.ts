/**
 * `npm run serve -- mint-token --sub S --name N --ttl SECONDS`: mints a wheeled-server service token
 * for a script or a sibling robot, from the same data folder the server uses, so a running
 * server accepts it at once (same secret) and lists it in the console. main/serve.ts calls
 * runMintTokenCommand with its parsed options and prints the token alone on stdout.
 */
import type { Log } from '../log.ts';
import { silentLog } from '../log.ts';
import { checkMintInput, createTokenService, type MintedServiceToken } from './auth/token-service.ts';

export const MINT_TOKEN_USAGE =
  'usage: npm run serve -- mint-token --sub SUBJECT --name NAME --ttl SECONDS [--data-dir DIR]\n' +
  '  SUBJECT  who the token is for (1-64 of A-Z a-z 0-9 . _ : @ -); "thinker" marks the autonomous persona\n' +
  '  NAME     a label shown in the dashboard (1-64 characters)\n' +
  '  SECONDS  lifetime, 60 to 315360000 (ten years)';

export interface MintTokenCommandInput {
  dataDir: string;
  /** The sub-command's options as main/flags.ts parses them (`--sub x` → {sub: 'x'}). */
  options: Readonly<Record<string, string>>;
  log?: Log;
}

/** Mints the token; throws an Error whose message includes the usage when an option is wrong. */
export async function runMintTokenCommand(input: MintTokenCommandInput): Promise<MintedServiceToken> {
  const unknown = Object.keys(input.options).filter((k) => !['sub', 'name', 'ttl'].includes(k));
  if (unknown.length > 0) throw new Error(`unknown option --${unknown[0]}\n${MINT_TOKEN_USAGE}`);
  const ttl = input.options['ttl'];
  const ttlSeconds = ttl !== undefined && /^\d{1,10}$/.test(ttl) ? Number(ttl) : Number.NaN;
  let checked;
  try {
    checked = checkMintInput({ sub: input.options['sub'], name: input.options['name'], ttlSeconds });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${MINT_TOKEN_USAGE}`);
  }
  const tokens = await createTokenService({ dataDir: input.dataDir, log: input.log ?? silentLog });
  return tokens.mintServiceToken(checked);
}

/** The lines serve.ts prints on stderr beside the bare token on stdout. */
export function describeMintedToken(minted: MintedServiceToken): string {
  return (
    `service token ${minted.id} for ${minted.sub} ("${minted.name}"), ` +
    `valid until ${new Date(minted.expiresAt).toISOString()}; send it as "Authorization: Bearer <token>" ` +
    'or ?token= on /ws/chat and /ws/voice'
  );
}
