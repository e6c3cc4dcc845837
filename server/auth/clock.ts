/**
 * The auth modules' path to the server clock (server/clock.ts is the one definition).
 */
export { systemClock, type Clock } from '../clock.ts';
