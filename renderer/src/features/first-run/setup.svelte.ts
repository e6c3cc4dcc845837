/**
 * The robot's stored name and the first-run guide's state, shared by the header (name, tab
 * title) and the guide. Provided by Dashboard.svelte; the name also follows the health frames,
 * so a rename from another browser shows here too.
 */
import { getContext, setContext, untrack } from 'svelte';
import { getSetup, putSetup, type GuideState, type SetupView } from '../../lib/api/setup-api.ts';
import type { Session } from '../../lib/state/session.svelte.ts';
import type { Connection } from '../connection/connection.svelte.ts';

const KEY = Symbol('setup');

export class SetupState {
  view = $state.raw<SetupView | null>(null);
  readonly session: Session;

  constructor(session: Session) {
    this.session = session;
  }

  async load(): Promise<void> {
    const result = await getSetup(this.session.http);
    if (result.ok) this.view = result.data;
  }

  /** Returns the refusal text, or null once the name is stored. */
  async rename(name: string): Promise<string | null> {
    const result = await putSetup(this.session.http, { name });
    if (!result.ok) return result.message;
    this.view = result.data;
    return null;
  }

  async setGuide(guide: GuideState): Promise<string | null> {
    const result = await putSetup(this.session.http, { guide });
    if (!result.ok) return result.message;
    this.view = result.data;
    return null;
  }

  /** A health frame's identity: the name as the cockpit has it now. */
  heardName(name: unknown): void {
    if (this.view && typeof name === 'string' && name !== this.view.name) this.view = { ...this.view, name };
  }
}

export function provideSetup(session: Session, connection: Connection): SetupState {
  const setup = new SetupState(session);
  // Read once the socket proves the credential (as the cards do), and again after a reconnect:
  // a refused token then never costs a console error before the sign-in card shows.
  const linked = $derived(connection.presence === 'connected' && connection.frame !== null);
  $effect(() => {
    if (linked) untrack(() => void setup.load());
  });
  $effect(() =>
    connection.listen((frame) => {
      if (frame.type === 'health') setup.heardName((frame as { identity?: { name?: unknown } }).identity?.name);
    }),
  );
  return setContext(KEY, setup);
}

export function useSetup(): SetupState {
  return getContext<SetupState>(KEY);
}
