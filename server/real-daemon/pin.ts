/**
 * The real Reachy Mini daemon the cockpit is proved against: Pollen's `reachy-mini` package on
 * PyPI. This is the ONE place its version is pinned; `npm run real-daemon`, the contract suite,
 * the differential test and `npm run record-fixtures` all install and run this version, and the
 * cockpit's version check calls it the top of the tested range.
 */
export const REAL_DAEMON_VERSION = '1.13.0';

/**
 * Daemon versions the cockpit is known to work with: 1.10 is what the simulator models
 * (server/sim/README-sim.md), 1.13 is the pinned release above. Outside this range the cockpit
 * still runs and warns (server/daemon/capabilities.ts).
 */
export const TESTED_RANGE = { min: '1.10.0', max: REAL_DAEMON_VERSION } as const;
