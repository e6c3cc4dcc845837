/**
 * Splits a JSON-lines file into rows. Appends always end with a newline, so a last line without
 * one was cut off by a kill mid-write: it is "torn" and dropped, and is not corruption.
 */
export interface ParsedLines<T> {
  rows: T[];
  /** The file ended in an unterminated line, which was dropped. */
  torn: boolean;
  /** Complete lines that were not valid JSON or failed validation. */
  badLines: number;
}

export function parseLines<T>(text: string, validate: (u: unknown) => T | undefined): ParsedLines<T> {
  const lines = text.split('\n');
  // After the split the last element is '' for a clean file, or the unterminated fragment.
  const tail = lines.pop() ?? '';
  const rows: T[] = [];
  let badLines = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const row = parseRow(line, validate);
    if (row === undefined) badLines += 1;
    else rows.push(row);
  }
  return { rows, torn: tail !== '', badLines };
}

function parseRow<T>(line: string, validate: (u: unknown) => T | undefined): T | undefined {
  try {
    return validate(JSON.parse(line));
  } catch {
    return undefined;
  }
}
