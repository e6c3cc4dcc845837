/**
 * One or two members of a JSON text swapped for generated values of other types (fuzz.ts
 * `fuzzValue`): what a peer that changed its shape, or something else answering on its port, sends.
 * Used by the proxy in front of the simulated daemon (mutating-daemon.ts) and by the fetch in
 * front of the platform emulator and the fake model servers (mutating-fetch.ts). Seeded through
 * the caller's Rng.
 */
import { fuzzValue, type Rng } from './fuzz.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Place = [Json[] | { [k: string]: Json } | undefined, string | number];

/** Every place in a JSON value a member can be swapped: [container, key] pairs, the root as [undefined, '']. */
function places(value: Json, out: Place[] = [[undefined, '']]): Place[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([value, i]);
      places(item, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push([value, key]);
      places(item, out);
    }
  }
  return out;
}

/**
 * The text with one or two members (or the whole) replaced; text that is not JSON comes back
 * unchanged. Each change is appended to `log` as `<where> <key> = <value>`, the newest 50 kept,
 * for a failure message.
 */
export function mutateJson(text: string, rng: Rng, where: string, log: string[]): string {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return text;
  }
  const count = rng() < 0.7 ? 1 : 2;
  for (let i = 0; i < count; i += 1) {
    const all = places(value);
    const [container, key] = all[Math.floor(rng() * all.length)] as Place;
    const replacement = fuzzValue(rng) as Json;
    if (container === undefined) value = replacement;
    else (container as Record<string | number, Json>)[key] = replacement;
    log.push(
      `${where} ${container === undefined ? '(body)' : String(key)} = ${JSON.stringify(replacement)?.slice(0, 80)}`,
    );
  }
  if (log.length > 50) log.splice(0, log.length - 50);
  return JSON.stringify(value);
}
