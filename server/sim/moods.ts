/**
 * Motion "moods" for synthetic recorded moves: which axes move, how fast and how far, and the
 * posture the head and antennas settle into. A move's family comes from keywords in its name.
 */

export interface Mood {
  /** Base frequency, Hz. */
  tempo: number;
  /** Range of durations, seconds. */
  duration: [number, number];
  /** Oscillation amplitudes: radians, and metres for z. */
  amp: { roll: number; pitch: number; yaw: number; z: number; body: number };
  /** Mean offset reached mid-move: pitch + looks down. */
  posture: { pitch: number; z: number };
  /** Antennas: spread from vertical (rad, 0.17 at rest, 3.05 folded), wobble and its speed factor. */
  antennas: { spread: number; amp: number; speed: number };
}

export type Family = 'nod' | 'shake' | 'bounce' | 'low' | 'tense' | 'look' | 'dance';

const FAMILIES: Record<Family, Mood> = {
  nod: {
    tempo: 1.8,
    duration: [2.5, 3.8],
    amp: { roll: 0.03, pitch: 0.22, yaw: 0.03, z: 0.002, body: 0 },
    posture: { pitch: 0.05, z: 0 },
    antennas: { spread: 0.3, amp: 0.2, speed: 1 },
  },
  shake: {
    tempo: 1.6,
    duration: [2.5, 3.8],
    amp: { roll: 0.04, pitch: 0.03, yaw: 0.35, z: 0.001, body: 0 },
    posture: { pitch: 0, z: 0 },
    antennas: { spread: 0.5, amp: 0.15, speed: 1 },
  },
  bounce: {
    tempo: 2.8,
    duration: [3, 5],
    amp: { roll: 0.1, pitch: 0.08, yaw: 0.08, z: 0.008, body: 0 },
    posture: { pitch: -0.08, z: 0.005 },
    antennas: { spread: 0.2, amp: 0.7, speed: 2 },
  },
  low: {
    tempo: 0.3,
    duration: [4, 7],
    amp: { roll: 0.05, pitch: 0.05, yaw: 0.12, z: 0.002, body: 0 },
    posture: { pitch: 0.3, z: -0.015 },
    antennas: { spread: 1.4, amp: 0.15, speed: 1 },
  },
  tense: {
    tempo: 4.5,
    duration: [2.5, 4],
    amp: { roll: 0.05, pitch: 0.06, yaw: 0.08, z: 0.002, body: 0 },
    posture: { pitch: -0.05, z: 0.004 },
    antennas: { spread: 0.9, amp: 0.3, speed: 1.5 },
  },
  look: {
    tempo: 0.35,
    duration: [3, 6],
    amp: { roll: 0.25, pitch: 0.1, yaw: 0.45, z: 0.003, body: 0 },
    posture: { pitch: 0, z: 0 },
    antennas: { spread: 0.3, amp: 0.35, speed: 2 },
  },
  dance: {
    tempo: 1.5,
    duration: [6, 10],
    amp: { roll: 0.2, pitch: 0.1, yaw: 0.3, z: 0.006, body: 0.35 },
    posture: { pitch: 0, z: 0 },
    antennas: { spread: 0.3, amp: 0.6, speed: 1 },
  },
};

const RULES: Array<[RegExp, Family]> = [
  [/^dance|dance$/, 'dance'],
  [/^(yes|nod|uh_huh|understanding|grateful|welcoming|helpful|come)|_nod$|peck|chin/, 'nod'],
  [/^(no\d|no_|go_away|reprimand|incomprehensible|contempt)/, 'shake'],
  [/laughing|cheerful|success|enthusiastic|electric|amazed|proud|loving|relief|toc-toc/, 'bounce'],
  [/sad|downcast|lonely|exhausted|tired|resigned|dying|boredom|sleep|waiting|serenity|calming|shy/, 'low'],
  [/furious|rage|irritated|frustrated|impatient|displeased|disgusted|uncomfortable|anxiety|fear|scared/, 'tense'],
];

export function familyOf(name: string, isDance: boolean): Family {
  if (isDance && !/nod|peck|chin/.test(name)) return 'dance';
  return RULES.find(([re]) => re.test(name))?.[1] ?? 'look';
}

function scaled(mood: Mood, k: { tempo?: number; amp?: number }): Mood {
  const a = k.amp ?? 1;
  const amp = {
    roll: mood.amp.roll * a,
    pitch: mood.amp.pitch * a,
    yaw: mood.amp.yaw * a,
    z: mood.amp.z * a,
    body: mood.amp.body * a,
  };
  return { ...mood, tempo: mood.tempo * (k.tempo ?? 1), amp };
}

/** Family mood, then name modifiers: "sad" droops and slows, "excited" speeds up, dance words pick an axis. */
export function moodFor(name: string, isDance: boolean): Mood {
  let mood = FAMILIES[familyOf(name, isDance)];
  if (/sad/.test(name) && !/^sad/.test(name)) {
    mood = {
      ...scaled(mood, { tempo: 0.6, amp: 0.7 }),
      posture: { pitch: 0.25, z: -0.01 },
      antennas: { ...mood.antennas, spread: 1.2 },
    };
  }
  if (/excited|furious|rage/.test(name)) mood = scaled(mood, { tempo: 1.4, amp: 1.3 });
  if (isDance) mood = danceAccent(name, mood);
  return mood;
}

function danceAccent(name: string, mood: Mood): Mood {
  const amp = { ...mood.amp };
  if (/tilt|roll/.test(name)) amp.roll *= 1.8;
  if (/sway|pendulum|side/.test(name)) [amp.yaw, amp.body] = [amp.yaw * 1.4, Math.max(amp.body, 0.3) * 1.4];
  if (/spin|spiral/.test(name)) [amp.yaw, amp.pitch] = [amp.yaw * 1.5, amp.pitch * 1.5];
  if (/snap|recoil|sharp|stumble/.test(name)) return { ...mood, amp, tempo: mood.tempo * 1.6 };
  return { ...mood, amp };
}
