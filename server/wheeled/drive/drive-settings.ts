/**
 * Speed presets of the drive: the share of the base's top
 * speed a full joystick deflection asks for. Stored in `<dataDir>/wheeled-drive.json` (0600,
 * atomic). The thinker gate is deliberately not stored: after a restart it is closed.
 */
import { join } from 'node:path';
import { badRequest } from '../../errors.ts';
import type { Log } from '../../log.ts';
import { createJsonDocument, type JsonDocument } from '../../store/json-document.ts';

export const PRESET_NAMES = ['slow', 'normal', 'fast'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export interface DriveSettingsDoc {
  preset: PresetName;
  presets: Record<PresetName, number>;
}

export const DEFAULT_DRIVE_SETTINGS: DriveSettingsDoc = Object.freeze({
  preset: 'normal',
  presets: Object.freeze({ slow: 0.35, normal: 0.6, fast: 1 }),
}) as DriveSettingsDoc;

const isPreset = (u: unknown): u is PresetName =>
  typeof u === 'string' && (PRESET_NAMES as readonly string[]).includes(u);
const isScale = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u) && u >= 0.05 && u <= 1;

function validate(u: unknown): DriveSettingsDoc | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const d = u as Record<string, unknown>;
  const presets = d.presets as Record<string, unknown> | undefined;
  if (!isPreset(d.preset) || typeof presets !== 'object' || presets === null) return undefined;
  if (!PRESET_NAMES.every((n) => isScale(presets[n]))) return undefined;
  return {
    preset: d.preset,
    presets: { slow: presets.slow as number, normal: presets.normal as number, fast: presets.fast as number },
  };
}

export interface DriveSettings {
  load(): Promise<void>;
  view(): DriveSettingsDoc;
  /** {preset?, presets?: {slow?, normal?, fast?}}; 400 naming the field. */
  update(raw: unknown): Promise<DriveSettingsDoc>;
  /** The active preset's share of top speed. */
  scale(): number;
}

export function parseSettingsInput(raw: unknown, current: DriveSettingsDoc): DriveSettingsDoc {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('body must be a JSON object');
  const body = raw as Record<string, unknown>;
  for (const key of Object.keys(body))
    if (key !== 'preset' && key !== 'presets') throw badRequest(`unknown field ${key}`);
  if (body.preset !== undefined && !isPreset(body.preset))
    throw badRequest(`preset must be one of ${PRESET_NAMES.join(', ')}`);
  const presets = { ...current.presets };
  if (body.presets !== undefined) {
    if (typeof body.presets !== 'object' || body.presets === null || Array.isArray(body.presets))
      throw badRequest('presets must be an object');
    for (const [name, value] of Object.entries(body.presets)) {
      if (!isPreset(name)) throw badRequest(`presets.${name} is not a preset (${PRESET_NAMES.join(', ')})`);
      if (!isScale(value)) throw badRequest(`presets.${name} must be a number from 0.05 to 1`);
      presets[name] = value;
    }
  }
  return { preset: isPreset(body.preset) ? body.preset : current.preset, presets };
}

export function createDriveSettings(options: { dataDir: string; log: Log }): DriveSettings {
  const doc: JsonDocument<DriveSettingsDoc> = createJsonDocument({
    file: join(options.dataDir, 'wheeled-drive.json'),
    defaults: () => structuredClone(DEFAULT_DRIVE_SETTINGS),
    validate,
    log: options.log,
  });
  return {
    load: async () => void (await doc.load()),
    view: () => doc.get(),
    update: (raw) => doc.update((current) => parseSettingsInput(raw, current)),
    scale: () => doc.get().presets[doc.get().preset],
  };
}
