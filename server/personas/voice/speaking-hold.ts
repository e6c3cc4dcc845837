/**
 * The voice persona's `speaking` tracking hold (docs/contract.md, "How the desktop server behaves": "takes `speaking` on its
 * first audio chunk and releases it 0.8 s after the response completes, or at once on
 * interruption"), so face tracking does not pull the head away mid-answer. The say path holds
 * `speaking` for its clip and the same tail (server/speech/speaker.ts), and hands over without
 * letting go, so the hold never drops between the clip's end and this tail. Every take carries a
 * TTL, so a crash can never freeze the head.
 */
import type { Holds } from '../../holds.ts';
import type { Schedule } from '../../perception/schedule.ts';
import { SPEAKING_TAIL_MS } from '../../speech/speaker.ts';

export { SPEAKING_TAIL_MS };
export const SPEAKING = 'speaking';
/** Before the clip's length is known (the synthesis is still running). */
const PROVISIONAL_S = 20;

export interface SpeakingHold {
  /** The answer's first audio is about to play. */
  begin(): void;
  /** The clip's length is known: the hold covers it and the tail. */
  playing(seconds: number): void;
  /** The answer has finished playing: released SPEAKING_TAIL_MS later. */
  complete(): void;
  /** Stop, mute or pause: released now. */
  interrupt(): void;
  held(): boolean;
}

export function createSpeakingHold(holds: Holds, schedule: Schedule): SpeakingHold {
  let held = false;
  let cancelTail: (() => void) | undefined;
  const release = () => {
    cancelTail?.();
    cancelTail = undefined;
    if (!held) return;
    held = false;
    holds.release(SPEAKING);
  };
  const take = (seconds: number) => {
    cancelTail?.();
    cancelTail = undefined;
    held = true;
    holds.take(SPEAKING, seconds);
  };
  return {
    begin: () => take(PROVISIONAL_S),
    playing: (seconds) => take(seconds + SPEAKING_TAIL_MS / 1000 + 1),
    complete() {
      if (!held) return;
      take(SPEAKING_TAIL_MS / 1000 + 0.5);
      cancelTail = schedule(release, SPEAKING_TAIL_MS);
    },
    interrupt: release,
    held: () => held,
  };
}
