/**
 * The perception loops' path to the server clock's timers (server/clock.ts is the one
 * definition): their rule tests step time by hand instead of sleeping (docs/testing.md, "Rules").
 */
export { realSchedule, type Schedule } from '../clock.ts';
