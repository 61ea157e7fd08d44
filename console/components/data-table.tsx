import { type CSSProperties, Fragment, type ReactNode } from 'react';

/** One column of a {@link DataTable}: its header and how a row fills its cell. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** The header is read by screen readers but not shown: an actions column needs a name, not a heading. */
  hiddenHeader?: boolean;
  /** Right-aligned figures. */
  numeric?: boolean;
  /** Class of the cell (`mono`, `muted`, `wrap`); numeric columns add `num` themselves. */
  className?: string;
  style?: CSSProperties;
  /** A header cell of its own (a sort link, a select-all box), rendered in place of the plain `<th>`. */
  headerCell?: ReactNode;
  /** A cell tooltip, e.g. the exact time behind a relative one. */
  title?: (row: T) => string | undefined;
}

/** `data-*` attributes of a row: the hooks tests and scripts find rows by. */
export type RowData = Record<`data-${string}`, string>;

export interface DataTableProps<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  rowData?: (row: T) => RowData;
  testId?: string;
  /** A caption for screen readers, when no visible heading names the table. */
  caption?: string;
  /** The id of the visible heading that names the table. */
  labelledBy?: string;
  /** Said under the header when there are no rows; without it an empty table is left empty. */
  empty?: ReactNode;
  /** False when the caller provides the scrolling wrapper (a table among other content). */
  wrap?: boolean;
  wrapStyle?: CSSProperties;
}

/**
 * The console's one table: a scrolling wrapper, an accessible name, a header row with `scope="col"` and a row per
 * item. Every list in the console goes through it, so they all read, scroll and fail empty alike. A plain
 * component: it renders on the server and in client components.
 */
export function DataTable<T>({ rows, columns, rowKey, rowData, testId, caption, labelledBy, empty, wrap = true, wrapStyle }: DataTableProps<T>) {
  const table = (
    <table className="data" data-testid={testId} aria-labelledby={labelledBy}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) =>
            c.headerCell ? (
              <Fragment key={c.header}>{c.headerCell}</Fragment>
            ) : (
              <th key={c.header} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.hiddenHeader ? <span className="sr-only">{c.header}</span> : c.header}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowData?.(row)}>
            {columns.map((c) => (
              <td key={c.header} className={cellClass(c)} style={c.style} title={c.title?.(row)}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (!wrap) return table;
  return (
    <div className="table-wrap" style={wrapStyle}>
      {table}
      {rows.length === 0 && empty && <div className="empty">{empty}</div>}
    </div>
  );
}

function cellClass(c: { numeric?: boolean; className?: string }): string | undefined {
  const names = [c.numeric ? 'num' : '', c.className ?? ''].filter(Boolean);
  return names.length > 0 ? names.join(' ') : undefined;
}
