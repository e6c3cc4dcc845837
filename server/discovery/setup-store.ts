/**
 * The robot's name and the first-run guide's state, kept in `<data dir>/robot.json` (0600, written
 * atomically). The name is what the header, the tab title, the tray and the mDNS advertisement
 * show; until the owner names the robot, the host's name stands in.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { GuideState } from '../contract/discovery.ts';
import { badRequest } from '../errors.ts';
import type { Log } from '../log.ts';
import { createJsonDocument, type JsonDocument } from '../store/json-document.ts';
import { cleanNetworkText, fitDnsLabel, hasUnsafeCharacters, ROBOT_NAME_MAX } from './network-text.ts';

export interface SetupRecord {
  name: string | null;
  guide: GuideState;
}

const GUIDE_STATES: readonly GuideState[] = ['open', 'finished', 'dismissed'];

function validRecord(u: unknown): SetupRecord | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const r = u as Record<string, unknown>;
  // Characters, as parseRobotName counted them when the name was stored (an emoji is two UTF-16
  // units): a name it took must not set the whole file aside at the next start.
  const nameOk = r.name === null || (typeof r.name === 'string' && [...r.name].length <= ROBOT_NAME_MAX);
  if (!nameOk || !GUIDE_STATES.includes(r.guide as GuideState)) return undefined;
  return { name: r.name as string | null, guide: r.guide as GuideState };
}

/**
 * A name as the owner typed it: once trimmed, 1-63 characters that fit one DNS label's 63 bytes
 * (fewer characters outside ASCII), no control characters.
 */
export function parseRobotName(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest('name must be a string');
  if (hasUnsafeCharacters(raw)) throw badRequest('name must not contain control characters');
  const name = cleanNetworkText(raw, Number.MAX_SAFE_INTEGER);
  if (name.length === 0) throw badRequest('name must not be empty');
  if ([...name].length > ROBOT_NAME_MAX) throw badRequest(`name must be at most ${ROBOT_NAME_MAX} characters`);
  if (fitDnsLabel(name) !== name)
    throw badRequest(`name must fit in ${ROBOT_NAME_MAX} bytes (one DNS label): fewer characters when they are accented letters, other scripts or emoji`);
  return name;
}

export function parseGuideState(raw: unknown): GuideState {
  if (!GUIDE_STATES.includes(raw as GuideState)) throw badRequest(`guide must be one of ${GUIDE_STATES.join(', ')}`);
  return raw as GuideState;
}

/** The host's short name, the robot's name until its owner picks one. */
export function defaultRobotName(host = hostname()): string {
  return cleanNetworkText(host.split('.')[0] ?? '', ROBOT_NAME_MAX) || 'Robot Cockpit';
}

export interface SetupStore {
  load(): Promise<void>;
  get(): SetupRecord;
  /** The stored name, or the host's name while none is stored; cut to one DNS label (fitDnsLabel). */
  name(): string;
  update(change: Partial<SetupRecord>): Promise<SetupRecord>;
  /** Called after a rename was stored (the advertisement follows it). */
  onChange(listener: (record: SetupRecord) => void): void;
}

export function createSetupStore(options: { dataDir: string; log: Log; hostName?: string }): SetupStore {
  const doc: JsonDocument<SetupRecord> = createJsonDocument({
    file: join(options.dataDir, 'robot.json'),
    defaults: () => ({ name: null, guide: 'open' }),
    validate: validRecord,
    log: options.log,
  });
  const fallback = defaultRobotName(options.hostName);
  const listeners: ((record: SetupRecord) => void)[] = [];
  return {
    async load() {
      await doc.load();
    },
    get: () => doc.get(),
    // A name stored before the label's byte limit was checked, or a host's name, is cut to fit.
    name: () => fitDnsLabel(doc.get().name ?? fallback),
    async update(change) {
      const before = doc.get().name;
      const next = await doc.update((cur) => ({ ...cur, ...change }));
      if (next.name !== before) for (const listener of listeners) listener(next);
      return next;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
