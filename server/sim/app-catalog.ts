/**
 * The simulated app store: a few fake Hugging Face Space apps with the behaviours a cockpit has to
 * cope with (an app that runs until stopped, one that crashes a few seconds after it starts with
 * a Python traceback on stderr, one whose install fails). AppInfo is the daemon's dataclass
 * `{name, source_kind, description, url, extra}` (docs/daemon.md, "Apps").
 */

export type SourceKind = 'hf_space' | 'dashboard_selection' | 'local' | 'installed';
export const SOURCE_KINDS: readonly SourceKind[] = ['hf_space', 'dashboard_selection', 'local', 'installed'];

export interface AppInfo {
  name: string;
  source_kind: SourceKind;
  description: string;
  url: string | null;
  extra: Record<string, unknown>;
}

export interface CatalogApp {
  name: string;
  description: string;
  /** Lines the install job logs, one per step. */
  installLog: string[];
  /** When set, the install fails after its log with these pip lines. */
  installError?: string[];
  /** What the app prints to stdout once running. */
  stdout: string[];
  /** Set for an app that crashes on its own: its last stderr lines and exit code. */
  crash?: { stderr: string[]; exitCode: number };
}

export const SIM_APP_CATALOG: readonly CatalogApp[] = [
  {
    name: 'hello_wave',
    description: 'Waves its antennas and says hello to whoever it sees.',
    installLog: [
      'Downloading hello_wave from pollen-sim/hello_wave',
      'Installing dependencies',
      'Registering entry point hello_wave',
    ],
    stdout: ['hello_wave: connected to the robot', 'hello_wave: waving'],
  },
  {
    name: 'clumsy_dancer',
    description: 'Dances to the music in the room (and sometimes trips).',
    installLog: [
      'Downloading clumsy_dancer from pollen-sim/clumsy_dancer',
      'Installing dependencies',
      'Registering entry point clumsy_dancer',
    ],
    stdout: ['clumsy_dancer: listening for a beat'],
    crash: {
      exitCode: 1,
      stderr: [
        'Traceback (most recent call last):',
        '  File "/venvs/apps_venv/lib/python3.12/site-packages/clumsy_dancer/main.py", line 42, in run',
        '    self.step(beat)',
        '  File "/venvs/apps_venv/lib/python3.12/site-packages/clumsy_dancer/main.py", line 77, in step',
        '    raise RuntimeError("lost the beat: no audio frames for 2 s")',
        'RuntimeError: lost the beat: no audio frames for 2 s',
      ],
    },
  },
  {
    name: 'broken_synth',
    description: 'A synthesiser app whose dependencies cannot be installed.',
    installLog: ['Downloading broken_synth from pollen-sim/broken_synth', 'Installing dependencies'],
    installError: [
      'ERROR: Could not find a version that satisfies the requirement pyaudio==0.0.0 (from broken-synth)',
      'ERROR: No matching distribution found for pyaudio==0.0.0',
    ],
    stdout: [],
  },
];

export function catalogApp(name: string): CatalogApp | undefined {
  return SIM_APP_CATALOG.find((app) => app.name === name);
}

/** A catalog entry as the store lists it; `sha` is the Space's current revision. */
export function storeInfo(app: CatalogApp, sha: string): AppInfo {
  return {
    name: app.name,
    source_kind: 'hf_space',
    description: app.description,
    url: `https://huggingface.co/spaces/pollen-sim/${app.name}`,
    extra: {
      id: `pollen-sim/${app.name}`,
      sha,
      cardData: { title: app.name, short_description: app.description },
    },
  };
}

/** An installed app as `list-available/installed` lists it. */
export function installedInfo(app: CatalogApp, sha: string): AppInfo {
  return {
    name: app.name,
    source_kind: 'installed',
    description: app.description,
    url: null,
    extra: { id: `pollen-sim/${app.name}`, installed_sha: sha },
  };
}
