import { useState, type ReactNode } from 'react';
import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { knownLogCategories, logLevels } from '@datalab/contract/api/application-logs';
import { fromLocalInput, toLocalInput, type FilterName, type LogFilters } from '../model/log-filters.ts';

export interface LogFilterBarProps {
  filters: LogFilters;
  onChange: (changes: Partial<Record<FilterName, string | number | undefined>>) => void;
  onClear: () => void;
  /** The user filter (a picker from the users feature). */
  userPicker: ReactNode;
  hasFilters: boolean;
}

const levelOptions = [
  { value: '', label: 'All levels' },
  ...logLevels.map((level) => ({ value: level, label: level === 'debug' ? 'debug and above' : `${level} and above` })),
];

/** Typed text reaches the URL on Enter or when the field is left, not at every key. */
function RequestIdField({ value, onCommit }: { value: string | undefined; onCommit: (value: string) => void }) {
  const [draft, setDraft] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value ?? '');
  }
  const commit = () => {
    if (draft.trim() !== (value ?? '')) onCommit(draft.trim());
  };
  return (
    <TextInput
      label="Request id"
      w={240}
      value={draft}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
    />
  );
}

export function LogFilterBar({ filters, onChange, onClear, userPicker, hasFilters }: LogFilterBarProps) {
  const categories: string[] = [...knownLogCategories];
  if (filters.category && !categories.includes(filters.category)) categories.push(filters.category);
  return (
    <Group gap="md" align="flex-end">
      <NativeSelect
        label="Level"
        w={170}
        value={filters.level ?? ''}
        onChange={(event) => onChange({ level: event.currentTarget.value || undefined })}
        data={levelOptions}
      />
      <NativeSelect
        label="Category"
        w={160}
        value={filters.category ?? ''}
        onChange={(event) => onChange({ category: event.currentTarget.value || undefined })}
        data={[{ value: '', label: 'All categories' }, ...categories]}
      />
      <TextInput
        label="From"
        type="datetime-local"
        w={210}
        value={toLocalInput(filters.from)}
        onChange={(event) => onChange({ from: fromLocalInput(event.currentTarget.value) })}
      />
      <TextInput
        label="To"
        type="datetime-local"
        w={210}
        value={toLocalInput(filters.to)}
        onChange={(event) => onChange({ to: fromLocalInput(event.currentTarget.value, { endOfMinute: true }) })}
      />
      <div style={{ width: 260 }}>{userPicker}</div>
      <RequestIdField value={filters.requestId} onCommit={(requestId) => onChange({ requestId })} />
      {hasFilters ? (
        <Button variant="default" onClick={onClear}>
          Clear filters
        </Button>
      ) : null}
    </Group>
  );
}
