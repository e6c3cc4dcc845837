/**
 * WebSocket close codes the cockpit sends on /ws. The values are WS_CLOSE of server/errors.ts, which
 * the renderer may not import at runtime (it takes only types from the server, docs/architecture.md,
 * "Folders and the direction of imports"); each is typed with the contract's literal
 * (server/contract/errors.ts), so a number that drifts from it does not compile.
 */
import type { WsCloseCodes } from '../../../../server/contract/index.ts';

export const CLOSE_UNAUTHORIZED: WsCloseCodes['UNAUTHORIZED'] = 4401;
export const CLOSE_FORBIDDEN: WsCloseCodes['FORBIDDEN'] = 4403;
