/** Edge validation of a prompt body: `{prompt}` of 1-4000 characters, else a 400 naming the field. */
import { badRequest } from '../errors.ts';

/** A prompt fits the platform's device ask too: at most 4000 characters (docs/platform.md, "Devices"). */
export const PROMPT_MAX_CHARS = 4000;

export function parsePrompt(raw: unknown, options: { extraFields?: boolean; textAlias?: boolean } = {}): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('body must be a JSON object');
  const body = raw as Record<string, unknown>;
  if (!options.extraFields) {
    for (const key of Object.keys(body))
      if (key !== 'prompt') throw badRequest(`unknown field ${key} (expected prompt)`);
  }
  // The wheeled server and the platform's endpoint proxy also send {text}; /api/chat accepts either.
  const value = body.prompt ?? (options.textAlias ? body.text : undefined);
  if (value === undefined) throw badRequest('prompt is required (1-4000 characters)');
  if (typeof value !== 'string') throw badRequest('prompt must be a string (1-4000 characters)');
  const prompt = value.trim();
  if (prompt.length === 0) throw badRequest('prompt must not be empty');
  if (prompt.length > PROMPT_MAX_CHARS) throw badRequest(`prompt must be at most ${PROMPT_MAX_CHARS} characters`);
  return prompt;
}
