// The console's list part: a page declares its query, its filters, its columns and its rows
// as data, and this draws them the one way every list looks: the filters (kept in the URL,
// so a filtered list can be reloaded, shared and gone back to), the loading, error and
// empty states, the table and the server's pager. Changing a filter goes back to the first
// page; the page number stays out of the URL on the first page.
import { keepPreviousData, useQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useLayoutEffect, useRef, useState } from 'react';
import { Listed, Pager } from '../states.tsx';
import { useT } from '../../i18n.ts';

/** A page of a list as every paged console route answers it. */
export type Paged<Row> = { data: readonly Row[]; page: number; totalPages: number; total: number };
type Search = { page?: number };
type Attrs = Record<string, string | number | boolean | undefined>;

export type ListSpec<S extends Search, Q, A> = {
  /** The API query for the URL's search (`page` is the page to show). */
  query: (search: S, page: number) => Q;
  key: (query: Q) => QueryKey;
  fetch: (query: Q) => Promise<A>;
  /** Read again every so many milliseconds while the answer asks for it (false: not). */
  refetchInterval?: (answer: A | undefined) => number | false;
  enabled?: boolean;
};

/**
 * A list's URL search and its page of rows: `search` as the route's validator read it, `go`
 * changes some of it (the rest kept), `filter` does too and goes back to the first page.
 */
export function useList<S extends Search, Q, A>(spec: ListSpec<S, Q, A>) {
  // The search of whichever list route is showing, as its validator (main.tsx) read it.
  const search = useSearch({ strict: false } as never) as S;
  const navigate = useNavigate();
  const page = search.page ?? 1;
  const query = spec.query(search, page);
  const answer = useQuery<A, Error, A, QueryKey>({
    queryKey: spec.key(query),
    queryFn: () => spec.fetch(query),
    placeholderData: keepPreviousData,
    refetchInterval: spec.refetchInterval && ((q) => spec.refetchInterval!(q.state.data)),
    enabled: spec.enabled,
  });
  const go = (next: Partial<S>) => void navigate({ to: '.', search: (prev: object) => ({ ...prev, ...next }) } as never);
  const filtered = Object.entries(search).some(([k, v]) => k !== 'page' && v !== undefined);
  return { search, page, answer, go, filter: (next: Partial<S>) => go({ ...next, page: undefined }), clear: () => void navigate({ to: '.', search: {} } as never), filtered };
}

export type List<S extends Search, A> = ReturnType<typeof useList<S, unknown, A>>;

/** A choice of a select filter. */
export type Choice = { value: string; label: React.ReactNode };

/**
 * A filter of the list: a select of values, a yes/no select, a day, a checkbox (each
 * applied as it changes) or a text box (applied with the others when the form is sent;
 * `searchbox` draws it as a search box).
 */
export type Filter<S> = { key: keyof S & string; id: string; label: string } & (
  | { kind: 'select'; all: React.ReactNode; options: readonly Choice[] }
  | { kind: 'flag'; all: string; options: readonly [boolean, string][] }
  | { kind: 'day' }
  | { kind: 'check' }
  | { kind: 'text'; searchbox?: boolean }
);

/** A choice per value, worded by `label`. */
export const choices = <T extends string>(values: readonly T[], label: (value: T) => React.ReactNode): Choice[] => values.map((value) => ({ value, label: label(value) }));

export type Column<Row> = {
  header: React.ReactNode;
  /** The cell's content (left out where `row` draws the rows). */
  cell?: (row: Row) => React.ReactNode;
  /** `num`: a figure, aligned right (header and cells). */
  align?: 'num';
  /** The words that label the column's cells on a phone, where `header` is not plain words. */
  label?: string;
  /** The header is for screen readers only (a column of buttons). */
  quietHeader?: boolean;
  /** The cell names its row (a row header). */
  rowHeader?: boolean;
  className?: string | ((row: Row) => string | undefined);
  attrs?: Attrs | ((row: Row) => Attrs);
  /** Drawn only when true (a column for a role that may write). */
  when?: boolean;
};

export type TableSpec<Row> = {
  columns: readonly Column<Row>[];
  rowKey: (row: Row, index: number) => React.Key;
  rowAttrs?: (row: Row) => Attrs;
  /**
   * A row drawn by its own part, for rows that hold state across cells or join cells (the
   * columns still give the headers); undefined draws that row from the columns.
   */
  row?: (row: Row) => React.ReactNode;
  /** The footer's figures, each under the last column with its label across the others. */
  totals?: readonly { label: React.ReactNode; value: React.ReactNode; attrs?: Attrs }[];
  /** Names the table's scrolling region. */
  label?: string;
  /** Attributes of the table itself (a test id). */
  tableAttrs?: Attrs;
};

/** The label a cell carries for the phone's cards: its column's header, where the header is words a reader sees. */
const labelOf = (c: Column<never>) => (c.quietHeader ? undefined : (c.label ?? (typeof c.header === 'string' ? c.header : undefined)));

/**
 * Rows a page draws itself carry no labels of their own: each cell gets its column's header
 * text (colspans counted), as the columns' cells get it from labelOf.
 */
function labelOwnRows(table: HTMLTableElement | null) {
  if (!table) return;
  const headers = [...table.querySelectorAll('thead th')].map((th) => (th.querySelector('.visually-hidden') ? undefined : th.textContent?.trim() || undefined));
  for (const tr of table.querySelectorAll('tbody tr')) {
    let column = 0;
    for (const cell of tr.children) {
      const header = headers[column];
      if (!cell.hasAttribute('data-label') && header && (cell as HTMLTableCellElement).colSpan === 1) cell.setAttribute('data-label', header);
      column += (cell as HTMLTableCellElement).colSpan || 1;
    }
  }
}

/**
 * The table of a list's rows, in its scrolling wrapper. Below 640 px (console.css) each row
 * is a card: the headers leave the screen and each cell shows its column's header beside its
 * value (`data-label`), so no page scrolls sideways; the markup stays a table.
 */
export function ListTable<Row>({ rows, columns, rowKey, rowAttrs, row, label, tableAttrs, totals }: TableSpec<Row> & { rows: readonly Row[] }) {
  const shown = columns.filter((c) => c.when !== false);
  const table = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    if (row) labelOwnRows(table.current);
  });
  return (
    <div className="table-wrap" tabIndex={0} role={label ? 'region' : undefined} aria-label={label}>
      <table ref={table} {...tableAttrs}>
        <thead>
          <tr>
            {shown.map((c, i) => (
              <th key={i} scope="col" className={c.align}>
                {c.quietHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, n) => {
            const own = row?.(r);
            if (own !== undefined) return <RowOf key={rowKey(r, n)}>{own}</RowOf>;
            return (
              <tr key={rowKey(r, n)} {...rowAttrs?.(r)}>
                {shown.map((c, i) => {
                  const extra = typeof c.className === 'function' ? c.className(r) : c.className;
                  const Cell = c.rowHeader ? 'th' : 'td';
                  return (
                    <Cell
                      key={i}
                      scope={c.rowHeader ? 'row' : undefined}
                      className={[c.align, extra].filter(Boolean).join(' ') || undefined}
                      data-label={labelOf(c as Column<never>)}
                      {...(typeof c.attrs === 'function' ? c.attrs(r) : c.attrs)}
                    >
                      {c.cell?.(r)}
                    </Cell>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
        {totals && (
          <tfoot>
            {totals.map((total, i) => (
              <tr key={i}>
                <th scope="row" colSpan={shown.length - 1}>
                  {total.label}
                </th>
                <td className="num" {...total.attrs}>
                  {total.value}
                </td>
              </tr>
            ))}
          </tfoot>
        )}
      </table>
    </div>
  );
}

const RowOf = ({ children }: { children: React.ReactNode }) => children;

export type FiltersSpec<S> = {
  filters: readonly Filter<S>[];
  /** Names the filters (a group, or the search form). */
  label?: string;
  /** The button that applies the text boxes (default: Search). */
  submit?: string;
  /** A button that takes every filter away, shown while one is set. */
  clear?: string;
  /** What else a filter's change leaves out of the URL, as it does the page (a cursor). */
  resets?: readonly (keyof S & string)[];
};

function FilterBar<S extends Search>({ list, spec }: { list: List<S, unknown>; spec: FiltersSpec<S> }) {
  const t = useT();
  const value = (key: string) => (list.search as Record<string, unknown>)[key];
  const texts = spec.filters.filter((f) => f.kind === 'text');
  const [typed, setTyped] = useState<Record<string, string>>(() => Object.fromEntries(texts.map((f) => [f.key, String(value(f.key) ?? '')])));
  const apply = (next: Record<string, unknown>) => list.filter({ ...Object.fromEntries((spec.resets ?? []).map((k) => [k, undefined])), ...next } as Partial<S>);
  const set = (key: string, v: unknown) => apply({ [key]: v });
  const fields = spec.filters.map((f) => {
    if (f.kind === 'check')
      return (
        <label key={f.key} className="check">
          <input id={f.id} type="checkbox" checked={value(f.key) === true} onChange={(e) => set(f.key, e.target.checked || undefined)} />
          {f.label}
        </label>
      );
    let input: React.ReactNode;
    if (f.kind === 'select' || f.kind === 'flag') {
      const options: readonly Choice[] = f.kind === 'select' ? f.options : f.options.map(([v, label]) => ({ value: String(v), label }));
      const current = value(f.key);
      input = (
        <select
          id={f.id}
          value={current === undefined ? '' : String(current)}
          onChange={(e) => set(f.key, e.target.value === '' ? undefined : f.kind === 'flag' ? e.target.value === 'true' : e.target.value)}
        >
          <option value="">{f.all}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    } else if (f.kind === 'day') {
      input = <input id={f.id} type="date" value={String(value(f.key) ?? '')} onChange={(e) => set(f.key, e.target.value || undefined)} />;
    } else {
      input = (
        <input
          id={f.id}
          type={f.searchbox ? 'search' : undefined}
          maxLength={f.searchbox ? 100 : undefined}
          value={typed[f.key] ?? ''}
          onChange={(e) => setTyped({ ...typed, [f.key]: e.target.value })}
        />
      );
    }
    return (
      <div key={f.key}>
        <label htmlFor={f.id}>{f.label}</label>
        {input}
      </div>
    );
  });
  if (texts.length === 0)
    return (
      <div className="filters" role="group" aria-label={spec.label}>
        {fields}
      </div>
    );
  return (
    <form
      className="filters"
      role="search"
      aria-label={spec.label}
      onSubmit={(e) => {
        e.preventDefault();
        apply(Object.fromEntries(texts.map((f) => [f.key, typed[f.key]?.trim() || undefined])));
      }}
    >
      {fields}
      <button type="submit">{spec.submit ?? t('catalog.searchButton')}</button>
      {spec.clear && list.filtered && (
        <button type="button" className="link" onClick={list.clear}>
          {spec.clear}
        </button>
      )}
    </form>
  );
}

/**
 * A list page's filters and its page of rows: the states while there is no page to show,
 * then the table and the pager. `pageTo` says what a pager move puts in the URL (default:
 * the page number, left out for the first).
 */
export function ListPage<S extends Search, A extends Paged<unknown>>({
  list,
  filters,
  empty,
  pageTo,
  children,
  ...table
}: TableSpec<NoInfer<A['data'][number]>> & {
  list: List<S, A>;
  filters?: FiltersSpec<NoInfer<S>>;
  empty: React.ReactNode;
  pageTo?: (page: number, answer: NoInfer<A>) => Partial<NoInfer<S>>;
  /** Shown between the filters and the rows (what the whole answer says, above its rows). */
  children?: React.ReactNode;
}) {
  // The text boxes start again from the URL when it changes under them (back, a link, clearing).
  const typedKey = filters ? JSON.stringify(filters.filters.filter((f) => f.kind === 'text').map((f) => (list.search as Record<string, unknown>)[f.key])) : '';
  return (
    <>
      {filters && <FilterBar key={typedKey} list={list as List<S, unknown>} spec={filters} />}
      {children}
      <Listed query={list.answer} empty={empty}>
        {(found) => (
          <>
            <ListTable rows={found.data} {...table} />
            <Pager page={found.page} totalPages={found.totalPages} total={found.total} go={(p) => list.go(pageTo ? pageTo(p, found) : ({ page: p === 1 ? undefined : p } as Partial<S>))} />
          </>
        )}
      </Listed>
    </>
  );
}

/** A list the API answers whole (no pages): its states, then its table. */
export function ListAll<Row>({ query, empty, ...table }: TableSpec<NoInfer<Row>> & { query: UseQueryResult<readonly Row[]>; empty: React.ReactNode }) {
  const whole = { ...query, data: query.data && { data: query.data } } as UseQueryResult<{ data: readonly Row[] }>;
  return (
    <Listed query={whole} empty={empty}>
      {(found) => <ListTable rows={found.data} {...table} />}
    </Listed>
  );
}
