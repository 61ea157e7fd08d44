'use client';

import { BULK_FORM } from '../../../lib/shared/bulk-state';

/**
 * "All on this page": sent as a field of the bulk form, so it works without JavaScript; with it, the row boxes
 * follow so the selection is visible.
 */
export function SelectAllOnPage() {
  return (
    <input
      type="checkbox"
      name="all_on_page"
      value="1"
      form={BULK_FORM}
      aria-label="Select all devices on this page"
      onChange={(event) => {
        const form = event.currentTarget.form;
        if (!form) return;
        for (const box of form.elements) {
          if (box instanceof HTMLInputElement && box.type === 'checkbox' && box.name === 'id') box.checked = event.currentTarget.checked;
        }
      }}
    />
  );
}
