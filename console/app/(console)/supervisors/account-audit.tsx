import type { AccountAuditRecord } from '../../../lib/server/vigil/types';
import { formatDateTime } from '../../../lib/shared/format';

const what: Record<AccountAuditRecord['action'], string> = {
  CREATE: 'created the account',
  DISABLE: 'disabled',
  ENABLE: 'enabled',
  DELETE: 'deleted',
  RESET_PASSWORD: 'reset the password',
  SET_ROLE: 'changed the role',
  CREATE_TOKEN: 'created an API token',
  REVOKE_TOKEN: 'revoked an API token',
  REVOKE_SESSION: 'ended a session',
  ROTATE_TOKEN: 'rotated an API token',
};

function describe(detail: Record<string, unknown> | null): string {
  if (!detail) return '';
  if (typeof detail.from === 'string' && typeof detail.to === 'string') return `${detail.from} → ${detail.to}`;
  if (typeof detail.name === 'string') return `“${detail.name}”`;
  if (typeof detail.sessions_revoked === 'number' && detail.sessions_revoked > 0) return `${detail.sessions_revoked} session(s) ended`;
  return '';
}

/** Who changed which account, newest first; deleted accounts keep their entries. */
export function AccountAudit({ records, tz }: { records: AccountAuditRecord[]; tz: string }) {
  return (
    <div className="table-wrap">
      <table className="data" data-testid="account-audit-table">
        <caption className="sr-only">Account changes</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Did</th>
            <th scope="col">Account</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={r.id}>
              <td>{formatDateTime(r.at, tz)}</td>
              <td>{r.actor.name}</td>
              <td>{what[r.action] ?? r.action.toLowerCase()}</td>
              <td>{r.username}</td>
              <td className="muted">{describe(r.detail)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {records.length === 0 && <div className="empty">No changes to accounts yet.</div>}
    </div>
  );
}
