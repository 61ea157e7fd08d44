import { ConfirmAction } from '../../../components/confirm-action';
import { deleteAccountAction, disableAccountAction, enableAccountAction, resetPasswordAction, setRoleAction } from '../../../lib/server/actions/accounts';
import type { Supervisor } from '../../../lib/server/vigil/types';

/**
 * What an admin can do to one account, each behind a confirmation. The server refuses to take away the last
 * enabled admin; that refusal shows in the dialog.
 */
export function AccountActions({ account, self }: { account: Supervisor; self: boolean }) {
  const hidden = { username: account.username };
  const who = self ? 'your own account' : account.username;
  return (
    <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }}>
      {account.disabledAt ? (
        <ConfirmAction
          label="Enable"
          small
          title={`Enable ${account.username}?`}
          description="They can sign in again, and their API tokens that were not revoked work again. Sessions ended by disabling stay ended."
          action={enableAccountAction}
          hidden={hidden}
          confirmLabel="Enable account"
          tone="ok"
        />
      ) : (
        <ConfirmAction
          label="Disable"
          small
          title={`Disable ${account.username}?`}
          description={`Signs ${who} out everywhere at once and refuses its API tokens until enabled. Nothing is deleted.`}
          action={disableAccountAction}
          hidden={hidden}
          confirmLabel="Disable account"
          tone="danger"
        />
      )}
      <ConfirmAction
        label="Reset password"
        small
        title={`Reset the password of ${account.username}?`}
        description="A new password is generated and shown once; the old one stops working and every session of the account ends. API tokens keep working."
        action={resetPasswordAction}
        hidden={hidden}
        confirmLabel="Reset password"
        tone="danger"
      />
      <ConfirmAction
        label="Change role"
        small
        title={`Change the role of ${account.username}?`}
        description="It applies to their next request."
        action={setRoleAction}
        hidden={hidden}
        fields={
          <div className="field">
            <label htmlFor={`role-${account.id}`}>New role</label>
            <select id={`role-${account.id}`} name="role" defaultValue={account.role.toLowerCase()}>
              <option value="viewer">Viewer: reads only</option>
              <option value="supervisor">Supervisor: reads and changes devices</option>
              <option value="admin">Admin: everything</option>
            </select>
          </div>
        }
        confirmLabel="Change role"
      />
      <ConfirmAction
        label="Delete"
        small
        title={`Delete ${account.username}?`}
        description="The account, its sessions and its API tokens are removed for good. The audit keeps its username."
        action={deleteAccountAction}
        hidden={hidden}
        confirmLabel="Delete account"
        tone="danger"
      />
    </div>
  );
}
