/**
 * The diagnostics card's state: the recent log at the chosen level (refreshed by the card while it
 * is visible) and the bundle download. Failures are shown in the card, never thrown. Created by
 * DiagnosticsCard.svelte.
 */
import type { DiagnosticsApi, LogEntry, LogLevel } from './diagnostics-api.ts';
import { bundleFileName, newestFirst } from './diagnostics-format.ts';

/** Saves text as a file on this device (a Blob and a download link in the browser). */
export type SaveFile = (name: string, text: string, type: string) => void;

export class DiagnosticsState {
  level = $state<LogLevel>('info');
  /** Newest first. */
  records = $state.raw<LogEntry[]>([]);
  /** When the shown records arrived (ms since the epoch). */
  updatedAt = $state<number | null>(null);
  problem = $state<string | null>(null);
  downloading = $state(false);
  downloadNote = $state('');
  readonly #api: DiagnosticsApi;
  readonly #save: SaveFile;
  /** Answers to an older level or a slower call must not overwrite a newer one. */
  #generation = 0;

  constructor(api: DiagnosticsApi, save: SaveFile) {
    this.#api = api;
    this.#save = save;
  }

  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    const result = await this.#api.logs(this.level);
    if (generation !== this.#generation) return;
    if (result.ok) {
      this.records = newestFirst(result.data);
      this.updatedAt = Date.now();
      this.problem = null;
    } else {
      this.problem = `The log could not be read: ${result.message}`;
    }
  }

  setLevel(level: LogLevel): Promise<void> {
    this.level = level;
    return this.refresh();
  }

  async download(): Promise<void> {
    this.downloading = true;
    this.downloadNote = 'Collecting the bundle…';
    const result = await this.#api.bundle();
    this.downloading = false;
    if (!result.ok) {
      this.downloadNote = `The bundle was not downloaded: ${result.message}`;
      return;
    }
    const name = bundleFileName(Date.now());
    this.#save(name, `${JSON.stringify(result.data, null, 2)}\n`, 'application/json');
    this.downloadNote = `Saved as ${name}.`;
  }
}

/** The browser's way to save a file the page holds: an object URL on a download link. */
export function saveInBrowser(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled: revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
