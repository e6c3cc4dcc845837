/**
 * The owner's push settings, kept in `<data dir>/push-settings.json` (0600, atomic): which kinds
 * of notice are on, and the VAPID subject, the contact a push service may use about this sender
 * (RFC 8292 §2.1: a mailto: or https: URI). The default subject is a mailto: address in the
 * .invalid domain (RFC 2606), which says "no contact given" without pretending to be someone.
 */
import { join } from 'node:path';
import { badRequest } from '../errors.ts';
import type { Log } from '../log.ts';
import { createJsonDocument, type JsonDocument } from '../store/json-document.ts';
import type { PushSettingsPatch } from '../contract/push.ts';
import { PUSH_KINDS, type PushKind } from './kinds.ts';

export const DEFAULT_SUBJECT = 'mailto:owner@robot.invalid';
export const SETTINGS_FILE = 'push-settings.json';
const SUBJECT_LIMIT = 256;

export interface PushSettings {
  subject: string;
  kinds: Record<PushKind, boolean>;
}

export function defaultSettings(): PushSettings {
  return {
    subject: DEFAULT_SUBJECT,
    kinds: Object.fromEntries(PUSH_KINDS.map((k) => [k, true])) as Record<PushKind, boolean>,
  };
}

/**
 * Why a subject is refused, or undefined when web-push will accept it. A localhost https
 * subject is refused too: push services reject it, and web-push would warn on every send.
 */
export function subjectProblem(subject: string): string | undefined {
  if (subject.length > SUBJECT_LIMIT) return `subject must be at most ${SUBJECT_LIMIT} characters`;
  if (/^mailto:[^\s@/?#]+@[^\s@/?#]+\.[^\s@/?#]+$/i.test(subject)) return undefined;
  try {
    const url = new URL(subject);
    if (url.protocol === 'https:' && url.hostname !== 'localhost' && !subject.includes(' ')) return undefined;
  } catch {
    // Falls through to the refusal below.
  }
  return 'subject must be mailto:<address> or an https: URL (not localhost)';
}

function validate(u: unknown): PushSettings | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const r = u as Record<string, unknown>;
  if (typeof r.subject !== 'string' || subjectProblem(r.subject) !== undefined) return undefined;
  const kinds = (typeof r.kinds === 'object' && r.kinds !== null ? r.kinds : {}) as Record<string, unknown>;
  // A kind added by a later version is on until the owner says otherwise.
  const merged = Object.fromEntries(PUSH_KINDS.map((k) => [k, typeof kinds[k] === 'boolean' ? kinds[k] : true]));
  return { subject: r.subject, kinds: merged as Record<PushKind, boolean> };
}

/** A PUT body: an object with subject and/or kinds, nothing else; throws 400 naming the field. */
export function parseSettingsPatch(body: unknown): PushSettingsPatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('the body must be a JSON object');
  const r = body as Record<string, unknown>;
  const extra = Object.keys(r).filter((k) => k !== 'subject' && k !== 'kinds');
  if (extra.length > 0) throw badRequest(`unknown field ${extra[0]}`);
  const patch: PushSettingsPatch = {};
  if (r.subject !== undefined) {
    if (typeof r.subject !== 'string') throw badRequest('subject must be a string');
    const problem = subjectProblem(r.subject.trim());
    if (problem) throw badRequest(problem);
    patch.subject = r.subject.trim();
  }
  if (r.kinds !== undefined) {
    if (typeof r.kinds !== 'object' || r.kinds === null || Array.isArray(r.kinds))
      throw badRequest('kinds must be an object');
    const kinds: Partial<Record<PushKind, boolean>> = {};
    for (const [key, value] of Object.entries(r.kinds)) {
      if (!(PUSH_KINDS as readonly string[]).includes(key)) throw badRequest(`kinds: unknown kind ${key}`);
      if (typeof value !== 'boolean') throw badRequest(`kinds.${key} must be true or false`);
      kinds[key as PushKind] = value;
    }
    patch.kinds = kinds;
  }
  return patch;
}

export function createSettingsStore(deps: { dataDir: string; log: Log }): JsonDocument<PushSettings> {
  return createJsonDocument({
    file: join(deps.dataDir, SETTINGS_FILE),
    defaults: defaultSettings,
    validate,
    log: deps.log,
  });
}

export function applyPatch(current: PushSettings, patch: PushSettingsPatch): PushSettings {
  return { subject: patch.subject ?? current.subject, kinds: { ...current.kinds, ...patch.kinds } };
}
