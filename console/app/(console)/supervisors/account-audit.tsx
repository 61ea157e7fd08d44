import { DataTable } from '../../../components/data-table';
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
    <DataTable
      testId="account-audit-table"
      caption="Account changes"
      rows={records}
      rowKey={(r) => r.id}
      empty="No changes to accounts yet."
      columns={[
        { header: 'When', cell: (r) => formatDateTime(r.at, tz) },
        { header: 'Who', cell: (r) => r.actor.name },
        { header: 'Did', cell: (r) => what[r.action] ?? r.action.toLowerCase() },
        { header: 'Account', cell: (r) => r.username },
        { header: 'Detail', className: 'muted', cell: (r) => describe(r.detail) },
      ]}
    />
  );
}
