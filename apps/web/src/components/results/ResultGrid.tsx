import { Button, Group, Text } from '@mantine/core';
import { IconCopy, IconX } from '@tabler/icons-react';
import { useRef, type KeyboardEvent } from 'react';
import { plural } from '../../lib/format.ts';
import { copyText } from './copy-text.ts';
import { GridBody } from './GridBody.tsx';
import { GridHeader } from './GridHeader.tsx';
import classes from './ResultGrid.module.css';
import { toTsv } from './tsv.ts';
import { useDisplayOrder } from './use-display-order.ts';
import { useResultTable, type ResultColumn, type ResultRow } from './use-result-table.ts';
import { useRowSelection } from './use-row-selection.ts';

// A call's result: virtualised rows in display order (the reply's, or sorted by a column on the loaded rows), resizable
// columns, copy of the selected rows (or of everything) as TSV, a sticky header and the row count. Nothing on the way
// to the first paint walks all the rows.

export interface ResultGridProps {
  columns: readonly ResultColumn[];
  rows: readonly ResultRow[];
  /** Names the grid for assistive technology, e.g. 'Result of Orders by region'. */
  label: string;
  height?: number;
}

export function ResultGrid({ columns, rows, label, height = 480 }: ResultGridProps) {
  const table = useResultTable(columns, rows);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { selected, toggle, clear } = useRowSelection();
  const sorting = table.state.sorting[0];
  const { rowAt, isSorting } = useDisplayOrder(rows, sorting ? { column: sorting.id, desc: sorting.desc } : null);
  const names = columns.map((column) => column.name);
  const widths = columns.map((column) => table.getColumn(column.name)?.getSize() ?? 120);

  const handleToggleRow = (position: number, extend: boolean) => toggle(rowAt, position, extend);
  const handleCopy = () => {
    const picked: ResultRow[] = [];
    for (let position = 0; position < rows.length; position += 1) {
      const index = rowAt(position);
      const row = rows[index];
      if (row && (selected.size === 0 || selected.has(index))) picked.push(row);
    }
    const what = selected.size > 0 ? plural(picked.length, 'selected row') : plural(picked.length, 'row');
    void copyText(toTsv(names, picked), what);
  };
  const handleKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'c' && !window.getSelection()?.toString()) {
      event.preventDefault();
      handleCopy();
    }
  };

  return (
    <div>
      <Group justify="space-between" mb="xs">
        <Text size="sm" aria-live="polite">
          {plural(rows.length, 'row')}
          {selected.size > 0 ? `, ${selected.size} selected` : ''}
          {isSorting ? ', sorting…' : ''}
        </Text>
        <Group gap="xs">
          {selected.size > 0 && (
            <Button variant="subtle" size="xs" leftSection={<IconX size={14} />} onClick={clear}>
              Clear selection
            </Button>
          )}
          <Button variant="default" size="xs" leftSection={<IconCopy size={14} />} onClick={handleCopy}>
            {selected.size > 0 ? 'Copy selected rows' : 'Copy all rows'}
          </Button>
        </Group>
      </Group>
      <div
        ref={scrollRef}
        className={classes.scroller}
        style={{ height }}
        role="region"
        aria-label={label}
        tabIndex={0}
        onKeyDown={handleKeyDown}
      >
        <table
          className={classes.table}
          aria-rowcount={rows.length + 1}
          aria-colcount={columns.length + 1}
          aria-busy={isSorting}
        >
          <GridHeader table={table} columns={columns} />
          <GridBody
            rows={rows}
            rowAt={rowAt}
            columns={columns}
            widths={widths}
            scrollRef={scrollRef}
            viewHeight={height}
            selected={selected}
            onToggleRow={handleToggleRow}
          />
        </table>
      </div>
    </div>
  );
}
