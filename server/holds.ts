/**
 * Named tracking holds: face tracking pauses while any hold is live, so a look, an expression or
 * speech is not fought by the tracker (docs/architecture.md, "Robot core"). Face tracking
 * (server/perception/tracking.ts) implements it; motion, speech and personas take holds. It sits
 * at the top of server/ because all of those import it and it imports none of them.
 */
export interface Holds {
  take(name: string, ttlSeconds: number): void;
  release(name: string): void;
}

/**
 * What the latched stop asks of face tracking: paused from the stop until the resume, with no
 * expiry. The stop releases every move's hold, and tracking would otherwise take the head again
 * at once, while the operator has been told nothing moves until resume.
 */
export interface StopHold {
  stopLatched(on: boolean): void;
}

/** For a robot without face tracking: nothing to pause. */
export const noHolds: Holds & StopHold = Object.freeze({ take: () => {}, release: () => {}, stopLatched: () => {} });
