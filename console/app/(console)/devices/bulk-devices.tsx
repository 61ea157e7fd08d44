'use client';

import { useActionState, useEffect, useRef } from 'react';
import { DataTable } from '../../../components/data-table';
import { bulkDevicesAction } from '../../../lib/server/actions/bulk';
import { BULK_FORM, bulkDoneTitle, bulkIdle, bulkTitle, type BulkResultRow } from '../../../lib/shared/bulk-state';

const outcomeLabels: Record<BulkResultRow['outcome'], string> = {
  CHANGED: 'Changed',
  UNCHANGED: 'Unchanged',
  REFUSED: 'Refused',
  NOT_FOUND: 'Not found',
};

/**
 * Bulk deactivate and transfer for the devices on this page. The row checkboxes and "all on this page" belong to
 * this form through their `form` attribute, so the table stays a plain table. Review → a confirmation that names
 * the count → a result per device, as the server answered it. Works as a plain HTML POST without JavaScript.
 */
export function BulkDevices({ pageIds }: { pageIds: string[] }) {
  const [state, run, pending] = useActionState(bulkDevicesAction, bulkIdle);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (state.stage !== 'choose') heading.current?.focus();
  }, [state]);

  if (state.stage === 'confirm') {
    const title = bulkTitle(state.kind, state.ids.length, state.newUserId);
    return (
      <form id={BULK_FORM} action={run} className="panel bulk" aria-labelledby="bulk-h" data-testid="bulk-confirm">
        <h2 id="bulk-h" ref={heading} tabIndex={-1}>
          {title}?
        </h2>
        <p className="muted">
          {state.kind === 'deactivate' ? <>Reason: {state.reason}. </> : null}
          {state.ids.length === 1 ? 'This device:' : `These ${state.ids.length} devices:`}{' '}
          <span className="mono wrap">{state.ids.slice(0, 20).join(', ')}</span>
          {state.ids.length > 20 ? ` and ${state.ids.length - 20} more` : ''}
        </p>
        <input type="hidden" name="kind" value={state.kind} />
        <input type="hidden" name="reason" value={state.reason} />
        <input type="hidden" name="newUserId" value={state.newUserId} />
        {state.ids.map((id) => (
          <input key={id} type="hidden" name="confirmed_id" value={id} />
        ))}
        <div className="row">
          <button type="submit" name="intent" value="apply" className={`btn ${state.kind === 'deactivate' ? 'btn-danger' : ''}`} disabled={pending}>
            {pending ? 'Working…' : title}
          </button>
          <button type="submit" name="intent" value="cancel" className="btn btn-ghost" formNoValidate>
            Cancel
          </button>
        </div>
      </form>
    );
  }

  return (
    <form id={BULK_FORM} action={run} className="panel bulk" aria-label="Change selected devices">
      {state.stage === 'done' && (
        <section aria-labelledby="bulk-h" data-testid="bulk-results">
          <h2 id="bulk-h" ref={heading} tabIndex={-1}>
            {bulkDoneTitle(state.kind, state.results)}
          </h2>
          <DataTable
            labelledBy="bulk-h"
            wrapStyle={{ marginBottom: 12 }}
            rows={state.results}
            rowKey={(r) => r.deviceId}
            rowData={(r) => ({ 'data-outcome': r.outcome })}
            columns={[
              { header: 'Device', className: 'mono', cell: (r) => r.deviceId },
              { header: 'Outcome', cell: (r) => outcomeLabels[r.outcome] ?? r.outcome },
              { header: 'Message', className: 'wrap', cell: (r) => r.message },
            ]}
          />
        </section>
      )}
      {state.stage === 'choose' && state.error && (
        <div className="notice error" role="alert">
          {state.error}
        </div>
      )}
      {pageIds.map((id) => (
        <input key={id} type="hidden" name="page_id" value={id} />
      ))}
      <div className="filters">
        <div className="field">
          <label htmlFor="bulk-kind">With the selected devices</label>
          <select id="bulk-kind" name="kind" defaultValue="deactivate">
            <option value="deactivate">Deactivate</option>
            <option value="transfer">Transfer to a user</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="bulk-reason">Reason (to deactivate)</label>
          <input id="bulk-reason" name="reason" type="text" maxLength={500} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="bulk-user">New user id (to transfer)</label>
          <input id="bulk-user" name="newUserId" type="text" maxLength={256} autoComplete="off" />
        </div>
        <div className="actions">
          <button type="submit" name="intent" value="review" className="btn" disabled={pending}>
            Review selection…
          </button>
        </div>
      </div>
    </form>
  );
}
