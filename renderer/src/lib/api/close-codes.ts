/**
 * WebSocket close codes the cockpit sends on /ws. They mirror WS_CLOSE in server/errors.ts, which
 * the renderer may not import at runtime (it takes only types from the server, docs/architecture.md, "Folders and the direction of imports").
 */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;
