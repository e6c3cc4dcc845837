import { describe, expect, it } from 'vitest';
import { isReachable } from './kinematics.ts';
import { recordedMove } from './library.ts';
import { DANCE_NAMES, DANCES_DATASET, EMOTION_NAMES, EMOTIONS_DATASET } from './library-names.ts';
import { familyOf } from './moods.ts';
import { xyzrpyFromPose } from './pose.ts';

/** docs/daemon.md, "Move libraries", sorted. */
const SPEC_EMOTIONS = `amazed1, anxiety1, attentive1, attentive2, boredom1, boredom2, calming1, cheerful1, come1,
confused1, contempt1, curious1, dance1, dance2, dance3, disgusted1, displeased1, displeased2,
downcast1, dying1, electric1, enthusiastic1, enthusiastic2, exhausted1, fear1, frustrated1,
furious1, go_away1, grateful1, helpful1, helpful2, impatient1, impatient2, incomprehensible2,
indifferent1, inquiring1, inquiring2, inquiring3, irritated1, irritated2, laughing1, laughing2,
lonely1, lost1, loving1, mini-deep-sleep, no1, no_excited1, no_sad1, oops1, oops2, proud1,
proud2, proud3, rage1, relief1, relief2, reprimand1, reprimand2, reprimand3, resigned1, sad1,
sad2, scared1, serenity1, shy1, sleep1, success1, success2, surprised1, surprised2,
thoughtful1, thoughtful2, tired1, toc-toc-toc, uncertain1, uncomfortable1, understanding1,
understanding2, waiting, wake-mini-up, welcoming1, welcoming2, yes1, yes_sad1`
  .split(',')
  .map((s) => s.trim());

function range(name: string, dataset: string, axis: 'pitch' | 'yaw' | 'roll'): number {
  const move = recordedMove(dataset, name);
  if (!move) throw new Error(name);
  const values: number[] = [];
  for (let t = 0; t <= move.duration; t += 0.02) {
    const head = move.sample(t).head;
    if (head) values.push(xyzrpyFromPose(head)[axis]);
  }
  return Math.max(...values) - Math.min(...values);
}

describe('recorded-move libraries (docs/daemon.md, "Move libraries")', () => {
  it('has exactly the 85 emotions of the spec, in an unsorted daemon order', () => {
    expect(EMOTION_NAMES).toHaveLength(85);
    expect([...EMOTION_NAMES].sort()).toEqual([...SPEC_EMOTIONS].sort());
    expect(EMOTION_NAMES).not.toEqual([...EMOTION_NAMES].sort());
    expect(new Set(EMOTION_NAMES).size).toBe(85);
  });

  it('has the 19 dances', () => {
    expect(DANCE_NAMES).toHaveLength(19);
    expect(DANCE_NAMES).toContain('groovy_sway_and_roll');
  });

  it('is deterministic, starts and ends neutral, and stays reachable', () => {
    for (const [dataset, names] of [
      [EMOTIONS_DATASET, EMOTION_NAMES],
      [DANCES_DATASET, DANCE_NAMES],
    ] as const) {
      for (const name of names) {
        const a = recordedMove(dataset, name);
        const b = recordedMove(dataset, name);
        expect(a?.duration).toBe(b?.duration);
        expect(a?.duration).toBeGreaterThanOrEqual(2);
        expect(a?.duration).toBeLessThanOrEqual(10);
        const d = a?.duration ?? 0;
        expect(a?.sample(d / 3)).toEqual(b?.sample(d / 3));
        for (const t of [0, d])
          expect(Math.abs(xyzrpyFromPose(a?.sample(t).head ?? { t: [1, 1, 1], q: [0, 1, 0, 0] }).pitch)).toBeLessThan(
            1e-9,
          );
        for (let t = 0; t <= d; t += 0.1) {
          const sample = a?.sample(t);
          expect(isReachable(sample?.head ?? { t: [1, 1, 1], q: [1, 0, 0, 0] }, sample?.bodyYaw ?? 0)).toBe(true);
        }
      }
    }
  });

  it('nods for yes, shakes for no, bounces when laughing and sways for dances', () => {
    expect(familyOf('yes1', false)).toBe('nod');
    expect(familyOf('no_sad1', false)).toBe('shake');
    expect(familyOf('laughing2', false)).toBe('bounce');
    expect(familyOf('side_to_side_sway', true)).toBe('dance');
    expect(range('yes1', EMOTIONS_DATASET, 'pitch')).toBeGreaterThan(2 * range('yes1', EMOTIONS_DATASET, 'yaw'));
    expect(range('no1', EMOTIONS_DATASET, 'yaw')).toBeGreaterThan(2 * range('no1', EMOTIONS_DATASET, 'pitch'));
    expect(recordedMove(DANCES_DATASET, 'side_to_side_sway')?.sample(3).bodyYaw).toBeDefined();
    expect(recordedMove(EMOTIONS_DATASET, 'yes1')?.sound).toBe('yes1.wav');
    expect(recordedMove(DANCES_DATASET, 'simple_nod')?.sound).toBeNull();
  });

  it('knows nothing else', () => {
    expect(recordedMove(EMOTIONS_DATASET, 'moonwalk')).toBeUndefined();
    expect(recordedMove('someone/else', 'yes1')).toBeUndefined();
  });
});
