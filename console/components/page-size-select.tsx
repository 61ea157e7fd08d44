import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../lib/shared/paging';

/** "Per page" for a filter form; the default size is left out of the URL. */
export function PageSizeSelect({ id, size }: { id: string; size: number }) {
  const value = (s: number) => (s === DEFAULT_PAGE_SIZE ? '' : String(s));
  return (
    <div className="field">
      <label htmlFor={id}>Per page</label>
      <select id={id} name="size" defaultValue={value(size)}>
        {PAGE_SIZES.map((s) => (
          <option key={s} value={value(s)}>
            {s}
          </option>
        ))}
      </select>
    </div>
  );
}
