/**
 * Fetching and verifying a firmware bundle. The channel stores only a
 * pointer {version, url, sha256, force?} to a manifest {version, files: [{name, sha256, url}]}
 * that the device fetches and checks itself (docs/platform.md, "Devices"). The manifest bytes must
 * hash to the pointer's sha256 and every file to its own; only then is the bundle staged, into
 * a fresh folder that is renamed into place, so a half-written bundle is never "staged".
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDir, writeFileAtomic } from '../atomic-file.ts';
import { LIMITS, READ } from '../limits.ts';
import type { PlatformHttp } from '../platform-http.ts';
import { downloadToFile, type DownloadDeps } from './download.ts';
import type { Outcome } from '../types.ts';
import { checkPlatformUrl } from '../url-policy.ts';

/** The pointer PUT /api/firmware/manifest answers with (docs/platform.md, "Devices"). */
export interface FirmwarePointer {
  version: string;
  url: string;
  sha256: string;
  force: boolean;
}

/** A verified bundle in the data dir, handed to the injected updater. */
export interface StagedBundle {
  version: string;
  dir: string;
  files: Array<{ name: string; path: string; sha256: string }>;
  force: boolean;
}

/** Why a bundle was refused; a transient download failure is retried soon, a bad bundle never. */
export interface BundleRefusal {
  kind: 'bad_bundle' | 'download';
  message: string;
  transient?: boolean;
}

const SHA256 = /^[0-9a-f]{64}$/i;
const SAFE_NAME = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

/** Reads a pointer from the answer's `bundle`, or null when there is none or it is malformed. */
export function parsePointer(bundle: unknown): FirmwarePointer | null {
  const b = bundle as Record<string, unknown> | null;
  if (!b || typeof b !== 'object') return null;
  const { version, url, sha256, force } = b;
  if (typeof version !== 'string' || version.length === 0 || version.length > LIMITS.firmwareVersionChars) return null;
  if (typeof url !== 'string' || url.length > LIMITS.firmwareUrlChars) return null;
  if (typeof sha256 !== 'string' || !SHA256.test(sha256)) return null;
  // The worker sends force as the string "1" (docs/platform.md, "Devices"); a boolean true is read the same way.
  return { version, url, sha256: sha256.toLowerCase(), force: force === '1' || force === true };
}

/** sha256 of bytes, hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const refuse = (message: string): { ok: false; failure: BundleRefusal } => ({
  ok: false,
  failure: { kind: 'bad_bundle', message },
});

interface ManifestFile {
  name: string;
  sha256: string;
  url: string;
}

/** Checks the manifest document against the pointer. */
export function checkManifest(raw: Uint8Array, pointer: FirmwarePointer): Outcome<ManifestFile[], BundleRefusal> {
  if (sha256Hex(raw) !== pointer.sha256) return refuse('manifest sha256 does not match the pointer');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch {
    return refuse('manifest is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return refuse('manifest is not a JSON object');
  const doc = parsed as { version?: unknown; files?: unknown };
  if (doc.version !== pointer.version) return refuse('manifest version differs from the pointer');
  if (!Array.isArray(doc.files) || doc.files.length === 0) return refuse('manifest lists no files');
  const files: ManifestFile[] = [];
  for (const f of doc.files as Array<Record<string, unknown> | null>) {
    if (typeof f?.name !== 'string' || !SAFE_NAME.test(f.name)) return refuse('manifest has an unsafe file name');
    if (typeof f.sha256 !== 'string' || !SHA256.test(f.sha256)) return refuse(`manifest file ${f.name} has no sha256`);
    if (typeof f.url !== 'string') return refuse(`manifest file ${f.name} has no url`);
    let absolute: string;
    try {
      absolute = new URL(f.url, pointer.url).href;
    } catch {
      return refuse(`manifest file ${f.name} has a bad url`);
    }
    if (!checkPlatformUrl(absolute).ok) return refuse(`manifest file ${f.name} is not served over https`);
    files.push({ name: f.name, sha256: f.sha256.toLowerCase(), url: absolute });
  }
  return { ok: true, value: files };
}

function folderName(version: string): string {
  return version.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** Downloads, verifies and stages a bundle under `<root>/staged/<version>`. */
export async function stageBundle(
  http: PlatformHttp,
  download: DownloadDeps,
  root: string,
  pointer: FirmwarePointer,
): Promise<Outcome<StagedBundle, BundleRefusal>> {
  if (!checkPlatformUrl(pointer.url).ok) return refuse('the manifest URL is not https');
  const manifest = await http.getBytes(pointer.url, READ.manifestBytes);
  if (!manifest.ok)
    return {
      ok: false,
      failure: {
        kind: 'download',
        message: `manifest: ${manifest.failure.message}`,
        transient: manifest.failure.retryable,
      },
    };
  const listed = checkManifest(manifest.value, pointer);
  if (!listed.ok) return listed;
  const incoming = join(root, `.incoming-${randomBytes(6).toString('hex')}`);
  try {
    const outcome = await downloadInto(download, incoming, listed.value);
    if (!outcome.ok) {
      await rm(incoming, { recursive: true, force: true });
      return outcome;
    }
    await writeFileAtomic(join(incoming, 'manifest.json'), manifest.value);
    return { ok: true, value: await promote(root, incoming, pointer, listed.value) };
  } catch (error) {
    // This computer's side (a full disk, a folder it may not write): tried again later, and the
    // status says so rather than staying at "downloading".
    await rm(incoming, { recursive: true, force: true }).catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      failure: { kind: 'download', message: `could not stage it here: ${message}`, transient: true },
    };
  }
}

/** Streams each file to disk, verified by its sha256 before the next one starts. */
async function downloadInto(
  download: DownloadDeps,
  dir: string,
  files: ManifestFile[],
): Promise<Outcome<void, BundleRefusal>> {
  await ensureDir(dir);
  for (const file of files) {
    const out = await downloadToFile(download, file.url, join(dir, 'files', file.name), file.sha256);
    if (!out.ok) {
      const sep = out.failure.kind === 'bad_bundle' ? ' ' : ': ';
      return { ok: false, failure: { ...out.failure, message: `file ${file.name}${sep}${out.failure.message}` } };
    }
  }
  return { ok: true, value: undefined };
}

/** Renames the verified folder into place and clears older staged bundles. */
async function promote(
  root: string,
  incoming: string,
  pointer: FirmwarePointer,
  files: ManifestFile[],
): Promise<StagedBundle> {
  const stagedRoot = join(root, 'staged');
  await ensureDir(stagedRoot);
  for (const old of await readdir(stagedRoot)) await rm(join(stagedRoot, old), { recursive: true, force: true });
  const dir = join(stagedRoot, folderName(pointer.version));
  await rename(incoming, dir);
  return {
    version: pointer.version,
    dir,
    force: pointer.force,
    files: files.map((f) => ({ name: f.name, sha256: f.sha256, path: join(dir, 'files', f.name) })),
  };
}
