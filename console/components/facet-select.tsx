import type { FacetValue } from '../lib/server/vigil/types';
import { formatCount } from '../lib/shared/format';

/** A filter over a registration facet (role, branch, tag): the values in use with their counts, and "all". */
export function FacetSelect({
  id,
  label,
  name,
  value,
  choices,
  all,
}: {
  id: string;
  label: string;
  name: string;
  value?: string;
  choices: FacetValue[];
  all: string;
}) {
  // A value from the address that no device has any more stays selectable, so the form shows what is applied.
  const known = choices.some((c) => c.value === value);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ''}>
        <option value="">{all}</option>
        {value && !known && <option value={value}>{value}</option>}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.value} ({formatCount(c.count)})
          </option>
        ))}
      </select>
    </div>
  );
}
