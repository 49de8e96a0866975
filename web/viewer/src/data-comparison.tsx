import type { DataRow, RunDetails } from '../../../src/results/index.js';
import type { DiffHighlights } from '../../../src/viewer/diff-highlights.js';
import { cellText, integerText } from '../../../src/viewer/display-format.js';

/** The saved columns, or those of the rows in order of first appearance. */
function columnsOf(columns: string[] | null, rows: DataRow[]): string[] {
  return columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
}

function DataTable(props: {
  side: 'actual' | 'expected';
  title: string;
  rows: DataRow[] | null;
  columns: string[] | null;
  rowCount: number | null;
  cells: Map<number, Set<string>>;
  unmatched: Set<number>;
  /** Expected columns the answer lacks, or answer columns nobody expected. */
  flaggedColumns: Set<string>;
  flagLabel: string;
}) {
  const { rows } = props;
  if (rows === null) {
    return (
      <div class={`data-side side-${props.side}`} data-side={props.side}>
        <h3>{props.title}</h3>
        <p class="notice">No data{props.side === 'actual' ? ' was extracted from the answer' : ''}.</p>
      </div>
    );
  }
  const columns = columnsOf(props.columns, rows);
  const total = props.rowCount ?? rows.length;
  return (
    <div class={`data-side side-${props.side}`} data-side={props.side}>
      <h3>
        {props.title}{' '}
        <span class="count">
          {integerText(total)} row{total === 1 ? '' : 's'}
          {rows.length < total ? ` · first ${integerText(rows.length)} saved in the file` : ''}
        </span>
      </h3>
      <div class="table-scroll tall">
        <table class="data">
          <thead>
            <tr>
              <th class="row-number">#</th>
              {columns.map((column) => (
                <th
                  key={column}
                  class={props.flaggedColumns.has(column) ? 'flagged-column' : ''}
                  title={props.flaggedColumns.has(column) ? props.flagLabel : undefined}
                >
                  {column}
                  {props.flaggedColumns.has(column) ? <span class="flag"> ({props.flagLabel})</span> : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const differing = props.cells.get(index);
              const unmatched = props.unmatched.has(index);
              return (
                <tr key={index} class={unmatched ? 'row-unmatched' : differing ? 'row-changed' : ''}>
                  <td class="row-number">{index}</td>
                  {columns.map((column) => {
                    const value = row[column];
                    const classes = [
                      differing?.has(column) ? 'cell-diff' : '',
                      value === null || value === undefined ? 'null' : '',
                    ].join(' ');
                    return (
                      <td key={column} class={classes.trim()}>
                        {cellText(value)}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Actual and expected data side by side, differing cells and unmatched rows highlighted. */
export function DataComparison(props: { details: RunDetails; highlights: DiffHighlights | null }) {
  const { details, highlights } = props;
  if (details.actual_data === null && details.expected_data === null) {
    return <p class="notice">No data to compare for this run.</p>;
  }
  return (
    <div class="data-compare">
      <DataTable
        side="actual"
        title="Actual (agent's answer)"
        rows={details.actual_data}
        columns={details.actual_columns}
        rowCount={details.actual_row_count}
        cells={highlights?.actualCells ?? new Map()}
        unmatched={new Set(highlights?.onlyInActual.map((row) => row.rowIndex))}
        flaggedColumns={new Set(highlights?.extraColumns)}
        flagLabel="not expected"
      />
      <DataTable
        side="expected"
        title="Expected (reference SQL)"
        rows={details.expected_data}
        columns={details.expected_columns}
        rowCount={details.expected_row_count}
        cells={highlights?.expectedCells ?? new Map()}
        unmatched={new Set(highlights?.onlyInExpected.map((row) => row.rowIndex))}
        flaggedColumns={new Set(highlights?.missingColumns)}
        flagLabel="missing in answer"
      />
    </div>
  );
}
