/**
 * The security page's state: how this browser is signed in, the enrolled passkeys (owner only),
 * and the actions on them. Created by SecurityPage.svelte and handed to its parts.
 */
import { deletePasskey, getAuthStatus, listPasskeys, renamePasskey } from '../../lib/api/auth-api.ts';
import type { AuthStatus, PublicCredential } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { Session } from '../../lib/state/session.svelte.ts';

export class SecurityState {
  status = $state.raw<AuthStatus | null>(null);
  passkeys = $state.raw<PublicCredential[] | null>(null);
  problem = $state<string | null>(null);
  readonly session: Session;

  constructor(session: Session) {
    this.session = session;
  }

  /** Reads the status, then the passkey list when the cockpit says this caller is the owner. */
  async refresh(): Promise<void> {
    const status = await getAuthStatus(this.session.http);
    if (!status.ok) {
      this.problem = status.message;
      return;
    }
    this.status = status.data;
    if (!status.data.owner) return;
    const list = await listPasskeys(this.session.http);
    if (list.ok) {
      this.passkeys = list.data;
      this.problem = null;
    } else this.problem = list.message;
  }

  /** Returns the refusal text, or null when it worked. */
  async rename(id: string, label: string): Promise<string | null> {
    return this.#change(await renamePasskey(this.session.http, id, label));
  }

  async remove(id: string): Promise<string | null> {
    return this.#change(await deletePasskey(this.session.http, id));
  }

  async #change(result: ApiResult<unknown>): Promise<string | null> {
    if (!result.ok) return result.message;
    await this.refresh();
    return null;
  }
}
