/**
 * Names from the network with characters that show nothing: a lookalike of a robot's name must not
 * read as that name in the fleet list, while emoji sequences and scripts that write with joiners
 * stay as they were sent.
 */
import { expect, it } from 'vitest';
import { cleanNetworkText, ROBOT_NAME_MAX } from './network-text.ts';
import { readCockpitTxt, readDaemonTxt } from './txt-record.ts';

const clean = (text: string) => cleanNetworkText(text, ROBOT_NAME_MAX);

it('shows the invisible characters of a lookalike name as spaces', () => {
  for (const hidden of [
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2060',
    '\u00ad',
    '\u061c',
    '\u034f',
    '\ufe0f',
    '\u{e0041}',
    '\u3164',
  ]) {
    expect(clean(`Kit${hidden}chen`), JSON.stringify(hidden)).toBe('Kit chen');
  }
  expect(clean('\u3164')).toBe('');
  expect(readCockpitTxt({ name: 'Kit\u200bchen' }).name).toBe('Kit chen');
  expect(readDaemonTxt({ robot_name: 'reachy\u200d_mini' }).name).toBe('reachy _mini');
});

it('keeps what the invisible characters draw: emoji sequences, a keycap, a flag, joining scripts', () => {
  for (const name of ['👨‍👩‍👧 home', '👩🏽‍💻 dev', '❤️ robot', '1️⃣', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 flag', 'می‌خواهم', 'क्‍ष']) {
    expect(clean(name)).toBe(name);
  }
});
