import { useState } from 'react';
import { Group, NumberInput, Pagination, Text } from '@mantine/core';
import { clampPage, pageCount } from './clamp-page.ts';

const controlLabels = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' };

export interface PagerProps {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}

/** Page buttons plus a 'Go to page' box; every page it reports is clamped to 1…total. */
export function Pager({ page, totalPages, onPageChange }: PagerProps) {
  const total = pageCount(totalPages);
  const current = clampPage(page, total);
  const [target, setTarget] = useState<string | number>(current);
  const [shown, setShown] = useState(current);
  if (shown !== current) {
    setShown(current);
    setTarget(current);
  }

  const go = (value: string | number) => {
    const next = clampPage(Number(value), total);
    setTarget(next);
    if (next !== current) onPageChange(next);
  };

  return (
    <Group justify="space-between" gap="md" wrap="wrap">
      <Pagination
        total={total}
        value={current}
        onChange={go}
        withEdges
        aria-label="Pages"
        getControlProps={(control) => ({ 'aria-label': controlLabels[control] })}
      />
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Page
        </Text>
        <NumberInput
          aria-label="Go to page"
          w={80}
          size="xs"
          min={1}
          max={total}
          allowDecimal={false}
          allowNegative={false}
          value={target}
          onChange={setTarget}
          onBlur={() => go(target)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') go(target);
          }}
        />
        <Text size="sm" c="dimmed">
          of {total}
        </Text>
      </Group>
    </Group>
  );
}
