/**
 * A disk that refuses a store's file (a kept recording, a push subscription; full, a file in the
 * way) is no bug of the cockpit's: the operator is told so with STORAGE_FAILED (503) and the system's reason,
 * instead of a bare "internal error" logged as one. Anything else passes as it was.
 */
import { AppError } from '../errors.ts';

export function storageFailed(error: unknown, what: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof AppError || typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
  return new AppError('STORAGE_FAILED', `${what}: the disk answered ${code}`);
}
