import type { DiffHighlights, UnmatchedRow } from '../../../src/viewer/diff-highlights.js';
import { cellText, countText } from '../../../src/viewer/display-format.js';

const KIND_LABEL: Record<string, string> = {
  missing_columns: 'Missing columns',
  row_count: 'Row count differs',
  values: 'Values differ',
  text: 'Difference',
};

function UnmatchedRows(props: { title: string; side: string; columns: string[]; rows: UnmatchedRow[] }) {
  if (props.rows.length === 0) return null;
  const width = Math.max(props.columns.length, ...props.rows.map((row) => row.values.length));
  const columns = Array.from({ length: width }, (_, index) => props.columns[index] ?? `column ${index + 1}`);
  return (
    <div class="diff-block" data-diff={props.side}>
      <h4>{props.title}</h4>
      <div class="table-scroll">
        <table class="data">
          <thead>
            <tr>
              <th class="row-number">row</th>
              {columns.map((column, index) => (
                <th key={index}>{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <tr key={row.rowIndex} class="row-unmatched">
                <td class="row-number">{row.rowIndex}</td>
                {columns.map((_, index) => (
                  <td key={index} class={row.values[index] === null ? 'null' : ''}>
                    {cellText(row.values[index])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The comparison's diff: its text as `nao test` printed it, then the differences as tables. */
export function DiffView(props: { diff: DiffHighlights }) {
  const { diff } = props;
  const structured =
    diff.mismatches.length +
      diff.onlyInActual.length +
      diff.onlyInExpected.length +
      diff.missingColumns.length >
    0;
  return (
    <div class="diff" data-kind={diff.kind}>
      <p class="diff-kind">
        <strong>{KIND_LABEL[diff.kind] ?? diff.kind}</strong>
        {diff.missingColumns.length > 0 ? <> — the answer lacks {diff.missingColumns.join(', ')}</> : null}
        {diff.extraColumns.length > 0 ? (
          <span class="muted"> · extra answer columns ignored: {diff.extraColumns.join(', ')}</span>
        ) : null}
      </p>
      {diff.mismatches.length > 0 ? (
        <div class="diff-block" data-diff="changed">
          <h4>Changed cells</h4>
          <table class="data">
            <thead>
              <tr>
                <th>Expected row</th>
                <th>Actual row</th>
                <th>Column</th>
                <th>Expected</th>
                <th>Actual</th>
              </tr>
            </thead>
            <tbody>
              {diff.mismatches.flatMap((mismatch) =>
                mismatch.cells.map((cell) => (
                  <tr key={`${mismatch.expectedRowIndex}:${mismatch.actualRowIndex}:${cell.column}`}>
                    <td class="row-number">{mismatch.expectedRowIndex}</td>
                    <td class="row-number">{mismatch.actualRowIndex}</td>
                    <td>{cell.column}</td>
                    <td class="cell-expected">{cellText(cell.expected)}</td>
                    <td class="cell-diff">{cellText(cell.actual)}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      ) : null}
      <UnmatchedRows
        title="Only in expected (missing from the answer)"
        side="only-expected"
        columns={diff.columns}
        rows={diff.onlyInExpected}
      />
      <UnmatchedRows
        title="Only in actual (not expected)"
        side="only-actual"
        columns={diff.columns}
        rows={diff.onlyInActual}
      />
      {diff.truncated !== null ? (
        <p class="muted">
          {countText(diff.truncated.total - diff.truncated.shown, 'more difference')} not kept (the diff keeps{' '}
          {diff.truncated.shown}).
        </p>
      ) : null}
      {!structured && diff.text !== '' ? <pre class="code">{diff.text}</pre> : null}
      {structured && diff.text !== '' ? (
        <details class="diff-text">
          <summary>As printed by nao test</summary>
          <pre class="code">{diff.text}</pre>
        </details>
      ) : null}
    </div>
  );
}
