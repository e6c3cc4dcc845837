/**
 * Query-string booleans as FastAPI parses them (pydantic lax mode): true/false, 1/0, yes/no,
 * on/off, t/f, y/n, case-insensitive; anything else is a 422 `bool_parsing` (docs/daemon.md, "State").
 */
import { boolParsing, missing, type PydanticError } from './pydantic.ts';

const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** undefined when the text is not a boolean. */
export function parseBool(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (TRUE.has(t)) return true;
  if (FALSE.has(t)) return false;
  return undefined;
}

export interface FlagResult<K extends string> {
  values: Record<K, boolean>;
  errors: PydanticError[];
}

/**
 * Reads boolean query flags with their defaults; a default of `undefined` marks the flag
 * required (missing → 422 `missing`, as `/api/daemon/stop?goto_sleep=` does).
 */
export function readFlags<K extends string>(
  query: URLSearchParams,
  defaults: Record<K, boolean | undefined>,
): FlagResult<K> {
  const values = {} as Record<K, boolean>;
  const errors: PydanticError[] = [];
  for (const name of Object.keys(defaults) as K[]) {
    const all = query.getAll(name);
    const raw = all[all.length - 1];
    if (raw === undefined) {
      const fallback = defaults[name];
      if (fallback === undefined) errors.push(missing(['query', name]));
      else values[name] = fallback;
      continue;
    }
    const parsed = parseBool(raw);
    if (parsed === undefined) errors.push(boolParsing(['query', name], raw));
    else values[name] = parsed;
  }
  return { values, errors };
}
