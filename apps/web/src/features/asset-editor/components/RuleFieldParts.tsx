import {
  ActionIcon,
  Autocomplete,
  Button,
  Group,
  NumberInput,
  Select,
  Stack,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { RuleDraft } from '../model/transformation-draft.ts';

// The forms of the rules with more than a field or two: filter, sort, mask, format. Column fields suggest the
// columns the previews have shown.

export type Patch = Record<string, unknown>;

/** What every rule's fields receive: the rule, the columns a preview has shown, a patcher, and each field's message. */
interface RuleFieldProps {
  rule: RuleDraft;
  columns: readonly string[];
  set: (p: Patch) => void;
  /** The server's message about a field of the rule (its path inside the rule), if any. */
  err: (field: string) => string | undefined;
}

const FILTER_OPS = [
  { value: 'eq', label: 'equals' },
  { value: 'ne', label: 'does not equal' },
  { value: 'lt', label: 'less than' },
  { value: 'le', label: 'at most' },
  { value: 'gt', label: 'greater than' },
  { value: 'ge', label: 'at least' },
  { value: 'contains', label: 'contains' },
  { value: 'startsWith', label: 'starts with' },
  { value: 'in', label: 'is one of' },
  { value: 'isNull', label: 'is empty' },
  { value: 'notNull', label: 'is not empty' },
];
const MASK_MODES = [
  { value: 'full', label: 'Full (every character)' },
  { value: 'partial', label: 'Partial (keep the ends)' },
  { value: 'hash', label: 'Hash (SHA-256)' },
];

export const str = (value: unknown) => (typeof value === 'string' ? value : '');
export const num = (value: unknown) => (typeof value === 'number' ? value : '');

export function ColumnField({
  label = 'Column',
  value,
  columns,
  error,
  onChange,
}: {
  label?: string;
  value: unknown;
  columns: readonly string[];
  error?: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <Autocomplete label={label} data={[...new Set(columns)]} value={str(value)} error={error} onChange={onChange} />
  );
}

/** The rule's `column`, with its error. */
export function RuleColumnField({ rule, columns, set, err }: RuleFieldProps) {
  return (
    <ColumnField
      value={rule['column']}
      columns={columns}
      error={err('column')}
      onChange={(column) => set({ column })}
    />
  );
}

export function FilterFields({ rule, columns, set, err }: RuleFieldProps) {
  const op = str(rule['op']) || 'eq';
  const value = rule['value'];
  const setOp = (next: string) => {
    if (next === 'isNull' || next === 'notNull') return set({ op: next, value: undefined });
    const text = Array.isArray(value) ? value.join(',') : str(value);
    set({ op: next, value: next === 'in' ? (text ? text.split(',').map((v) => v.trim()) : []) : text });
  };
  return (
    <Group grow align="flex-start">
      <RuleColumnField rule={rule} columns={columns} set={set} err={err} />
      <Select
        label="Condition"
        data={FILTER_OPS}
        value={op}
        allowDeselect={false}
        error={err('op')}
        onChange={(v) => setOp(v ?? 'eq')}
      />
      {op === 'isNull' || op === 'notNull' ? null : op === 'in' ? (
        <TagsInput
          label="Values"
          description="Press Enter after each"
          value={Array.isArray(value) ? value.map(String) : []}
          error={err('value')}
          onChange={(values) => set({ value: values })}
        />
      ) : (
        <TextInput
          label="Value"
          value={str(value)}
          error={err('value')}
          onChange={(e) => set({ value: e.currentTarget.value })}
        />
      )}
    </Group>
  );
}

type SortKey = { column: string; direction: 'asc' | 'desc' };

export function SortFields({ rule, columns, set, err }: RuleFieldProps) {
  const by = (Array.isArray(rule['by']) ? rule['by'] : []) as SortKey[];
  const setBy = (next: SortKey[]) => set({ by: next });
  return (
    <Stack gap="xs">
      {by.map((key, index) => (
        <Group key={index} align="flex-end" wrap="nowrap">
          <ColumnField
            label={`Sort column ${index + 1}`}
            value={key.column}
            columns={columns}
            error={err(`by.${index}.column`)}
            onChange={(column) => setBy(by.map((k, i) => (i === index ? { ...k, column } : k)))}
          />
          <Select
            label={`Direction ${index + 1}`}
            data={[
              { value: 'asc', label: 'Ascending' },
              { value: 'desc', label: 'Descending' },
            ]}
            value={key.direction}
            allowDeselect={false}
            error={err(`by.${index}.direction`)}
            onChange={(v) =>
              setBy(by.map((k, i) => (i === index ? { ...k, direction: v === 'desc' ? 'desc' : 'asc' } : k)))
            }
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Remove sort column ${index + 1}`}
            disabled={by.length === 1}
            onClick={() => setBy(by.filter((_, i) => i !== index))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconPlus size={14} />}
          onClick={() => setBy([...by, { column: '', direction: 'asc' }])}
        >
          Add a sort column
        </Button>
      </Group>
    </Stack>
  );
}

export function MaskFields({ rule, columns, set, err }: RuleFieldProps) {
  const mode = str(rule['mode']) || 'full';
  return (
    <Group grow align="flex-start">
      <RuleColumnField rule={rule} columns={columns} set={set} err={err} />
      <Select
        label="Mask"
        data={MASK_MODES}
        value={mode}
        allowDeselect={false}
        error={err('mode')}
        onChange={(v) => set({ mode: v })}
      />
      {mode === 'partial' ? (
        <>
          <NumberInput
            label="Keep first"
            min={0}
            max={100}
            value={num(rule['keepFirst'])}
            error={err('keepFirst')}
            onChange={(v) => set({ keepFirst: Number(v) || 0 })}
          />
          <NumberInput
            label="Keep last"
            min={0}
            max={100}
            value={num(rule['keepLast'])}
            error={err('keepLast')}
            onChange={(v) => set({ keepLast: Number(v) || 0 })}
          />
        </>
      ) : null}
      {mode === 'hash' ? (
        <TextInput
          label="Salt"
          value={str(rule['salt'])}
          error={err('salt')}
          onChange={(e) => set({ salt: e.currentTarget.value })}
        />
      ) : (
        <TextInput
          label="Mask character"
          maxLength={1}
          value={str(rule['maskChar'])}
          error={err('maskChar')}
          onChange={(e) => set({ maskChar: e.currentTarget.value || '*' })}
        />
      )}
    </Group>
  );
}

export function FormatFields({ rule, columns, set, err }: RuleFieldProps) {
  const kind = str(rule['kind']) === 'date' ? 'date' : 'number';
  return (
    <Group grow align="flex-start">
      <RuleColumnField rule={rule} columns={columns} set={set} err={err} />
      <Select
        label="As"
        data={[
          { value: 'number', label: 'Number' },
          { value: 'date', label: 'Date' },
        ]}
        value={kind}
        allowDeselect={false}
        error={err('kind')}
        onChange={(v) => set({ kind: v })}
      />
      {kind === 'date' ? (
        <TextInput
          label="Pattern"
          description="YYYY MM DD HH mm ss"
          value={str(rule['pattern'])}
          error={err('pattern')}
          onChange={(e) => set({ pattern: e.currentTarget.value })}
        />
      ) : (
        <>
          <NumberInput
            label="Decimals"
            min={0}
            max={20}
            value={num(rule['decimals'])}
            error={err('decimals')}
            onChange={(v) => set({ decimals: v === '' ? undefined : Number(v) })}
          />
          <TextInput
            label="Thousands separator"
            maxLength={1}
            value={str(rule['thousandsSeparator'])}
            error={err('thousandsSeparator')}
            onChange={(e) => set({ thousandsSeparator: e.currentTarget.value })}
          />
        </>
      )}
    </Group>
  );
}
