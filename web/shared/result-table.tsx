import { cellText } from '../../src/viewer/display-format.js';

/** A query's rows under their column names; a NULL cell is spelled out and carries class `null`. */
export function ResultTable(props: {
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
  class?: string;
  testId?: string;
}) {
  return (
    <table class={props.class} data-testid={props.testId}>
      <thead>
        <tr>
          {props.columns.map((column, index) => (
            <th key={index}>{column}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row, rowIndex) => (
          <tr key={rowIndex}>
            {row.map((cell, cellIndex) => (
              <td key={cellIndex} class={cell === null ? 'null' : undefined}>
                {cellText(cell)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
