import { Group, NumberInput, Select, TagsInput, TextInput } from '@mantine/core';
import type { RuleDraft } from '../model/transformation-draft.ts';
import {
  ColumnField,
  FilterFields,
  FormatFields,
  MaskFields,
  SortFields,
  num,
  str,
  type Patch,
} from './RuleFieldParts.tsx';

// One rule's form, by type. Column fields suggest the columns the previews have shown; the engine checks the names
// against the actual columns when the preview runs, and its message shows under the rule.

interface RuleFieldsProps {
  rule: RuleDraft;
  columns: readonly string[];
  onChange: (rule: RuleDraft) => void;
}

const CAST_TARGETS = ['string', 'integer', 'decimal', 'boolean', 'date', 'datetime'];

export function RuleFields({ rule, columns, onChange }: RuleFieldsProps) {
  const set = (patch: Patch) => onChange({ ...rule, ...patch });
  switch (rule.type) {
    case 'select':
      return (
        <TagsInput
          label="Columns to keep, in order"
          description="Press Enter after each"
          data={[...new Set(columns)]}
          value={Array.isArray(rule['columns']) ? rule['columns'].map(String) : []}
          onChange={(values) => set({ columns: values })}
        />
      );
    case 'rename':
      return (
        <Group grow align="flex-start">
          <ColumnField label="Column" value={rule['from']} columns={columns} onChange={(from) => set({ from })} />
          <TextInput label="New name" value={str(rule['to'])} onChange={(e) => set({ to: e.currentTarget.value })} />
        </Group>
      );
    case 'mask':
      return <MaskFields rule={rule} columns={columns} set={set} />;
    case 'filter':
      return <FilterFields rule={rule} columns={columns} set={set} />;
    case 'sort':
      return <SortFields rule={rule} columns={columns} set={set} />;
    case 'cast':
      return (
        <Group grow align="flex-start">
          <ColumnField value={rule['column']} columns={columns} onChange={(column) => set({ column })} />
          <Select
            label="To"
            data={CAST_TARGETS}
            value={str(rule['to'])}
            allowDeselect={false}
            onChange={(v) => set({ to: v })}
          />
        </Group>
      );
    case 'format':
      return <FormatFields rule={rule} columns={columns} set={set} />;
    case 'computed':
      return (
        <Group grow align="flex-start">
          <TextInput
            label="New column"
            value={str(rule['name'])}
            onChange={(e) => set({ name: e.currentTarget.value })}
          />
          <TextInput
            label="Expression"
            description="e.g. total * 1.2 or upper(name)"
            value={str(rule['expression'])}
            onChange={(e) => set({ expression: e.currentTarget.value })}
          />
        </Group>
      );
    case 'limit':
      return (
        <NumberInput
          label="Rows, at most"
          min={0}
          w={200}
          value={num(rule['count'])}
          onChange={(v) => set({ count: Number(v) || 0 })}
        />
      );
  }
}
