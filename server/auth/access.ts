/**
 * The access model of one cockpit, composed once: owner token, passkey sessions, loopback
 * trust, brute-force throttle, the control guard and the handshake routes. The desktop server and
 * the wheeled server each build one over the same data folder.
 */
import type { Config } from '../config.ts';
import type { GateDeps } from '../http/access-gate.ts';
import { createControlGuard } from '../http/control-guard.ts';
import type { RouteSpec } from '../http/route-table.ts';
import type { Log } from '../log.ts';
import { authRoutes } from './auth-routes.ts';
import { createFailureThrottle } from './brute-force.ts';
import { systemClock, type Clock } from './clock.ts';
import { createPairingCodes, type PairingCodes } from './pairing.ts';
import { createPasskeyService, type PasskeyService } from './passkeys.ts';
import { createRateLimiter } from '../http/rate-limit.ts';
import { createSessionStore, type SessionStore } from './sessions.ts';

export interface AccessOptions {
  config: Pick<Config, 'dataDir' | 'regToken' | 'sessionTtlSeconds' | 'loopbackReads' | 'rateLimit' | 'rpId' | 'origin'>;
  log: Log;
  ownerToken: string;
  clock?: Clock;
  pairingBaseUrl?: () => string | undefined;
}

export interface Access {
  readonly gate: GateDeps;
  readonly routes: RouteSpec[];
  readonly sessions: SessionStore;
  readonly passkeys: PasskeyService;
  readonly pairing: PairingCodes;
}

export async function createAccess(options: AccessOptions): Promise<Access> {
  const { config, log } = options;
  const clock = options.clock ?? systemClock;
  const sessions = await createSessionStore({ dataDir: config.dataDir, clock, log: log.child('sessions') });
  const pairing = createPairingCodes({ clock });
  const passkeys = await createPasskeyService({
    dataDir: config.dataDir,
    clock,
    log: log.child('passkeys'),
    regToken: config.regToken,
    sessions,
    sessionTtlSeconds: config.sessionTtlSeconds,
    pairing,
    ownerTokenExists: true,
  });
  const allowedOrigins = config.origin ? [config.origin] : [];
  const gate: GateDeps = {
    credentials: { ownerToken: options.ownerToken, validateSession: (id) => sessions.validate(id) },
    loopbackReads: config.loopbackReads,
    failures: createFailureThrottle({ clock }),
    controlGuard: createControlGuard({
      limiter: createRateLimiter({ limit: config.rateLimit, clock }),
      allowedOrigins,
      limit: config.rateLimit,
    }),
    allowedOrigins,
  };
  const routes = authRoutes({
    passkeys,
    pairing,
    rpId: config.rpId,
    origin: config.origin,
    sessionTtlSeconds: config.sessionTtlSeconds,
    ...(options.pairingBaseUrl ? { pairingBaseUrl: options.pairingBaseUrl } : {}),
  });
  return { gate, routes, sessions, passkeys, pairing };
}
