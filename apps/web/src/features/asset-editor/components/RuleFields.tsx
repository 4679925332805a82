import { Group, NumberInput, Select, TagsInput, TextInput } from '@mantine/core';
import { fieldError, type RuleDraft, type RuleErrors } from '../model/transformation-draft.ts';
import {
  ColumnField,
  FilterFields,
  FormatFields,
  MaskFields,
  RuleColumnField,
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
  /** The server's messages about this rule, by field (see ruleErrors). */
  errors: RuleErrors;
  onChange: (rule: RuleDraft) => void;
}

const CAST_TARGETS = ['string', 'integer', 'decimal', 'boolean', 'date', 'datetime'];

export function RuleFields({ rule, columns, errors, onChange }: RuleFieldsProps) {
  const set = (patch: Patch) => onChange({ ...rule, ...patch });
  const err = (field: string) => fieldError(errors, field);
  switch (rule.type) {
    case 'select':
      return (
        <TagsInput
          label="Columns to keep, in order"
          description="Press Enter after each"
          data={[...new Set(columns)]}
          value={Array.isArray(rule['columns']) ? rule['columns'].map(String) : []}
          error={err('columns')}
          onChange={(values) => set({ columns: values })}
        />
      );
    case 'rename':
      return (
        <Group grow align="flex-start">
          <ColumnField
            label="Column"
            value={rule['from']}
            columns={columns}
            error={err('from')}
            onChange={(from) => set({ from })}
          />
          <TextInput
            label="New name"
            value={str(rule['to'])}
            error={err('to')}
            onChange={(e) => set({ to: e.currentTarget.value })}
          />
        </Group>
      );
    case 'mask':
      return <MaskFields rule={rule} columns={columns} set={set} err={err} />;
    case 'filter':
      return <FilterFields rule={rule} columns={columns} set={set} err={err} />;
    case 'sort':
      return <SortFields rule={rule} columns={columns} set={set} err={err} />;
    case 'cast':
      return (
        <Group grow align="flex-start">
          <RuleColumnField rule={rule} columns={columns} set={set} err={err} />
          <Select
            label="To"
            data={CAST_TARGETS}
            value={str(rule['to'])}
            error={err('to')}
            allowDeselect={false}
            onChange={(v) => set({ to: v })}
          />
        </Group>
      );
    case 'format':
      return <FormatFields rule={rule} columns={columns} set={set} err={err} />;
    case 'computed':
      return (
        <Group grow align="flex-start">
          <TextInput
            label="New column"
            value={str(rule['name'])}
            error={err('name')}
            onChange={(e) => set({ name: e.currentTarget.value })}
          />
          <TextInput
            label="Expression"
            description="e.g. total * 1.2 or upper(name)"
            value={str(rule['expression'])}
            error={err('expression')}
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
          error={err('count')}
          onChange={(v) => set({ count: Number(v) || 0 })}
        />
      );
  }
}
