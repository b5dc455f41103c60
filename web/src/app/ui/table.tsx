// A data table with a caption and column headers. On narrow screens each row becomes a card whose
// cells carry their column's name (data-label, drawn by the CSS).
import type { ComponentChildren } from 'preact';

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  /** Numbers line up on the right. */
  align?: 'start' | 'end';
  /** Left out of the narrow-screen card (its content is in another cell already). */
  wide?: boolean;
}

export function DataTable<T>({ caption, columns, rows, rowKey, empty, captionHidden = false }: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Shown instead of the table when there are no rows. */
  empty?: ComponentChildren;
  captionHidden?: boolean;
}) {
  if (!rows.length && empty) return <>{empty}</>;
  return (
    <div class="table-wrap">
      <table class="table">
        <caption class={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => <th key={column.header} scope="col" class={column.align === 'end' ? 'num' : undefined}>{column.header}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} data-label={column.header} class={[column.align === 'end' ? 'num' : '', column.wide ? 'wide-only' : ''].filter(Boolean).join(' ') || undefined}>
                  <div class="cell">{column.cell(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
