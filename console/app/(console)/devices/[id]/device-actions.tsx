'use client';

import { ConfirmAction } from '../../../../components/confirm-action';
import { deviceAction } from '../../../../lib/server/actions/devices';
import type { DeviceStatus } from '../../../../lib/server/vigil/types';

/** Deactivate, reactivate and transfer, each behind a confirmation; shown only to supervisors and admins. */
export function DeviceActions({ deviceId, status, userId }: { deviceId: string; status: DeviceStatus; userId: string }) {
  return (
    <div className="row" data-testid="device-actions">
      {status === 'ACTIVE' && (
        <ConfirmAction
          label="Deactivate"
          title="Deactivate this device?"
          description={
            <>
              <span className="mono">{deviceId}</span> will be reported as deactivated in every event response; callers are expected to block it. The reason is
              recorded in the audit history.
            </>
          }
          action={deviceAction}
          hidden={{ deviceId, action: 'deactivate' }}
          fields={
            <div className="field">
              <label htmlFor="deactivate-reason">Reason (required)</label>
              <textarea id="deactivate-reason" name="reason" required maxLength={500} />
            </div>
          }
          confirmLabel="Deactivate device"
          tone="danger"
        />
      )}
      {status === 'DEACTIVATED' && (
        <ConfirmAction
          label="Reactivate"
          title="Reactivate this device?"
          description={<>The device becomes active again for its current user, {userId}.</>}
          action={deviceAction}
          hidden={{ deviceId, action: 'reactivate' }}
          fields={
            <div className="field">
              <label htmlFor="reactivate-reason">Reason (required)</label>
              <textarea id="reactivate-reason" name="reason" required maxLength={500} />
            </div>
          }
          confirmLabel="Reactivate device"
          tone="ok"
        />
      )}
      <ConfirmAction
        label="Transfer"
        title="Transfer this device?"
        description={<>The registration moves from {userId} to the new user; its state stays as it is.</>}
        action={deviceAction}
        hidden={{ deviceId, action: 'transfer' }}
        fields={
          <div className="field">
            <label htmlFor="transfer-user">New user id (required)</label>
            <input id="transfer-user" name="newUserId" type="text" required maxLength={256} autoComplete="off" />
          </div>
        }
        confirmLabel="Transfer device"
      />
    </div>
  );
}
