import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type Column, DataTable } from './data-table';

interface Row {
  id: string;
  name: string;
  score: number;
}

const columns: Column<Row>[] = [
  { header: 'Name', cell: (r) => r.name, title: (r) => `name of ${r.id}` },
  { header: 'Score', numeric: true, className: 'mono', cell: (r) => r.score },
  { header: 'Actions', hiddenHeader: true, cell: (r) => <button type="button">Open {r.id}</button> },
];
const rows: Row[] = [
  { id: 'a', name: 'Ada', score: 0.5 },
  { id: 'b', name: 'Bo', score: 1 },
];

const render = (props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) =>
  renderToStaticMarkup(<DataTable rows={rows} columns={columns} rowKey={(r) => r.id} testId="t" caption="People" empty="Nobody." {...props} />);

describe('DataTable', () => {
  it('names the table, scopes every header and hides the actions heading from sight only', () => {
    const html = render();
    expect(html).toContain('<div class="table-wrap"><table class="data" data-testid="t"><caption class="sr-only">People</caption>');
    expect(html).toContain('<th scope="col">Name</th><th scope="col" class="num">Score</th><th scope="col"><span class="sr-only">Actions</span></th>');
  });

  it('fills a row per item, with the cell classes, tooltips and row data attributes', () => {
    const html = render({ rowData: (r) => ({ 'data-person': r.id }) });
    expect(html).toContain(
      '<tr data-person="a"><td title="name of a">Ada</td><td class="num mono">0.5</td><td><button type="button">Open a</button></td></tr>',
    );
    expect(html.match(/<tr data-person=/g)).toHaveLength(2);
    expect(html).not.toContain('Nobody.');
  });

  it('says why it is empty under the header, and only when it is', () => {
    expect(render({ rows: [] })).toContain('</table><div class="empty">Nobody.</div></div>');
    expect(render({ rows: [], empty: undefined })).not.toContain('class="empty"');
  });

  it('takes a header cell of its own and a name from a visible heading, and can leave the wrapper to its caller', () => {
    const own: Column<Row> = { header: 'Sort', headerCell: <th aria-sort="ascending">Sorted</th>, cell: (r) => r.name };
    const html = render({ columns: [own], caption: undefined, labelledBy: 'heading', wrap: false });
    expect(html.startsWith('<table class="data" data-testid="t" aria-labelledby="heading"><thead><tr><th aria-sort="ascending">Sorted</th></tr>')).toBe(true);
    expect(html).not.toContain('caption');
  });
});
