/**
 * The recordings card's state: the recorder status and the kept recordings (refreshed by the
 * card), "save the last N minutes", rename, delete, download and the camera switch. Failures are
 * shown in the card, never thrown. Created by RecordingsCard.svelte.
 */
import type { KeptRecording, RecordingsView } from '../../../../server/contract/recordings.ts';
import type { RecordingsApi } from './recordings-api.ts';
import { downloadName } from './recordings-format.ts';

/** Saves a blob as a file on this device. */
export type SaveBlob = (name: string, blob: Blob) => void;

export class RecordingsState {
  view = $state.raw<RecordingsView | null>(null);
  problem = $state<string | null>(null);
  note = $state('');
  busy = $state(false);
  minutes = $state(5);
  readonly #api: RecordingsApi;
  readonly #save: SaveBlob;

  constructor(api: RecordingsApi, save: SaveBlob) {
    this.#api = api;
    this.#save = save;
  }

  async refresh(): Promise<void> {
    const result = await this.#api.list();
    if (result.ok) {
      this.view = result.data;
      this.problem = null;
    } else this.problem = `The recordings could not be read: ${result.message}`;
  }

  async saveLast(): Promise<KeptRecording | null> {
    this.busy = true;
    this.note = `Saving the last ${this.minutes} min…`;
    const result = await this.#api.save(this.minutes);
    this.busy = false;
    if (!result.ok) {
      this.note = `Not saved: ${result.message}`;
      return null;
    }
    this.note = `Saved as “${result.data.name}”.`;
    await this.refresh();
    return result.data;
  }

  async rename(id: string, name: string): Promise<void> {
    const result = await this.#api.rename(id, name);
    this.note = result.ok ? `Renamed to “${result.data.name}”.` : `Not renamed: ${result.message}`;
    await this.refresh();
  }

  async remove(recording: KeptRecording): Promise<void> {
    const result = await this.#api.remove(recording.id);
    this.note = result.ok ? `Deleted “${recording.name}”.` : `Not deleted: ${result.message}`;
    await this.refresh();
  }

  async download(recording: KeptRecording): Promise<void> {
    this.note = `Downloading “${recording.name}”…`;
    const result = await this.#api.file(recording.id);
    if (!result.ok) {
      this.note = `Not downloaded: ${result.message}`;
      return;
    }
    const name = downloadName(recording.name);
    this.#save(name, result.data);
    this.note = `Downloaded as ${name}.`;
  }

  async setCamera(on: boolean): Promise<void> {
    const result = await this.#api.setCamera(on);
    if (!result.ok) {
      this.note = `The camera setting was not changed: ${result.message}`;
      return;
    }
    if (this.view) this.view = { ...this.view, recorder: result.data };
    this.note = on ? 'Camera frames are recorded again.' : 'Camera frames are no longer recorded.';
  }
}

/** The browser's way to save a blob: an object URL on a download link. */
export function saveBlobInBrowser(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
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
