/**
 * A backup or restore the operator must do something about (a running server, a non-empty target, a missing
 * pg_dump): one sentence saying what and what to do, printed by the CLI without a stack trace.
 */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Progress lines for long work, printed as they come. */
export type Progress = (line: string) => void;
