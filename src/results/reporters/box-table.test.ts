import { describe, expect, it } from 'vitest';
import { type BoxTable, renderBoxTable } from './box-table.js';

const TABLE: BoxTable = {
  title: 'T',
  columns: [
    { header: ['Name'], align: 'left' },
    { header: ['Long', 'header'], align: 'right' },
  ],
  rows: [[{ lines: ['alpha:beta'] }, { lines: ['1'] }]],
  footer: [{ lines: ['Total'] }, { lines: ['1'] }],
};

describe('renderBoxTable', () => {
  it('draws a heavy header, a light body, a rule above the footer, and bottom-aligns headers', () => {
    expect(renderBoxTable(TABLE, { width: 80, color: false }).split('\n')).toEqual([
      '           T',
      '┏━━━━━━━━━━━━┳━━━━━━━━┓',
      '┃            ┃   Long ┃',
      '┃ Name       ┃ header ┃',
      '┡━━━━━━━━━━━━╇━━━━━━━━┩',
      '│ alpha:beta │      1 │',
      '├────────────┼────────┤',
      '│ Total      │      1 │',
      '└────────────┴────────┘',
    ]);
  });

  it('closes the header straight onto the bottom rule when there are no rows', () => {
    expect(
      renderBoxTable({ ...TABLE, title: '', rows: [], footer: undefined }, { width: 80, color: false }),
    ).toBe(
      [
        '┏━━━━━━┳━━━━━━━━┓',
        '┃      ┃   Long ┃',
        '┃ Name ┃ header ┃',
        '┡━━━━━━╇━━━━━━━━┩',
        '└──────┴────────┘',
      ].join('\n'),
    );
  });

  it('reflows, then gives back the room a reflow freed to a column cut before it', () => {
    const table: BoxTable = {
      title: '',
      columns: [
        { header: ['Model'], align: 'left' },
        { header: ['Message'], align: 'left' },
      ],
      rows: [[{ lines: ['provider-name-x:model-name-abcd'] }, { lines: ['a message of 23 columns'] }]],
    };
    const lines = renderBoxTable(table, {
      width: 46,
      color: false,
      shrink: [
        { column: 1, kind: 'truncate', minWidth: 12 },
        { column: 0, kind: 'reflow', reflow: (line) => line.split(':') },
      ],
    }).split('\n');
    expect(lines.slice(3)).toEqual([
      '│ provider-name-x │ a message of 23 columns │',
      '│ model-name-abcd │                         │',
      '└─────────────────┴─────────────────────────┘',
    ]);
  });

  it('never widens a column narrower than a step minimum', () => {
    const table: BoxTable = {
      title: '',
      columns: [
        { header: ['A'], align: 'left' },
        { header: ['B'], align: 'left' },
      ],
      rows: [[{ lines: ['x'] }, { lines: ['a long cell that must be cut'] }]],
    };
    const lines = renderBoxTable(table, {
      width: 20,
      color: false,
      shrink: [
        { column: 0, kind: 'truncate', minWidth: 10 },
        { column: 1, kind: 'truncate', minWidth: 3 },
      ],
    }).split('\n');
    expect(lines[3]).toBe('│ x │ a long cell… │');
  });

  it('paints the text of a cell, not its padding', () => {
    const text = renderBoxTable(
      {
        title: '',
        columns: [{ header: ['S'], align: 'center' }],
        rows: [[{ lines: ['✓'], color: 'green' }]],
      },
      { width: 80, color: true },
    );
    expect(text).toContain('│ \u001b[32m✓\u001b[39m │');
    expect(text).toContain('┃ \u001b[1mS\u001b[22m ┃');
  });
});
