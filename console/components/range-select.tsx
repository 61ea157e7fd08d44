import { ranges, type RangeKey } from '../lib/shared/ranges';

export function RangeSelect({ id, value }: { id: string; value: RangeKey }) {
  return (
    <div className="field">
      <label htmlFor={id}>Range</label>
      <select id={id} name="range" defaultValue={value}>
        {Object.entries(ranges).map(([k, r]) => (
          <option key={k} value={k}>
            {r.label}
          </option>
        ))}
      </select>
    </div>
  );
}
