/**
 * Move names of the two Hugging Face datasets (docs/daemon.md, "Move libraries"). The emotions list is in the
 * daemon's own unsorted directory-glob order, as a third-party snapshot read from a daemon on
 * 2026-07-30 gives it; the dances list is in the order its third-party doc gives.
 */

export const EMOTIONS_DATASET = 'pollen-robotics/reachy-mini-emotions-library';
export const DANCES_DATASET = 'pollen-robotics/reachy-mini-dances-library';

// prettier-ignore
export const EMOTION_NAMES: readonly string[] = Object.freeze([
  'understanding2', 'scared1', 'displeased1', 'sad2', 'curious1', 'dance3', 'waiting',
  'yes_sad1', 'shy1', 'resigned1', 'relief1', 'dying1', 'go_away1', 'attentive1',
  'exhausted1', 'reprimand2', 'come1', 'surprised1', 'attentive2', 'indifferent1',
  'thoughtful1', 'laughing1', 'inquiring1', 'fear1', 'impatient1', 'contempt1',
  'helpful2', 'success1', 'reprimand1', 'uncomfortable1', 'lost1', 'dance1', 'relief2',
  'frustrated1', 'boredom1', 'grateful1', 'proud1', 'inquiring3', 'confused1',
  'irritated1', 'welcoming2', 'impatient2', 'no_sad1', 'no1', 'cheerful1', 'proud2',
  'inquiring2', 'amazed1', 'surprised2', 'mini-deep-sleep', 'disgusted1', 'uncertain1',
  'welcoming1', 'anxiety1', 'sad1', 'reprimand3', 'irritated2', 'oops2', 'sleep1',
  'serenity1', 'calming1', 'electric1', 'yes1', 'loving1', 'incomprehensible2',
  'understanding1', 'enthusiastic1', 'rage1', 'success2', 'tired1', 'oops1',
  'toc-toc-toc', 'wake-mini-up', 'lonely1', 'furious1', 'thoughtful2', 'proud3',
  'helpful1', 'boredom2', 'downcast1', 'laughing2', 'displeased2', 'no_excited1',
  'dance2', 'enthusiastic2',
]);

// prettier-ignore
export const DANCE_NAMES: readonly string[] = Object.freeze([
  'side_glance_flick', 'jackson_square', 'side_peekaboo', 'groovy_sway_and_roll', 'chin_lead',
  'side_to_side_sway', 'neck_recoil', 'head_tilt_roll', 'simple_nod', 'uh_huh_tilt',
  'interwoven_spirals', 'pendulum_swing', 'chicken_peck', 'yeah_nod', 'stumble_and_recover',
  'dizzy_spin', 'grid_snap', 'polyrhythm_combo', 'sharp_side_tilt',
]);

export const DATASETS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  [EMOTIONS_DATASET]: EMOTION_NAMES,
  [DANCES_DATASET]: DANCE_NAMES,
});
