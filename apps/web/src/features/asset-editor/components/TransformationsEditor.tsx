import { ActionIcon, Badge, Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  moved,
  newRule,
  newTransformation,
  ruleErrors,
  ruleLevelMessages,
  ruleLabels,
  ruleTypes,
  type KeyedRule,
  type RuleType,
  type TransformationDraft,
} from '../model/transformation-draft.ts';
import { RuleFields } from './RuleFields.tsx';

// Transformations and their rules, applied in order to every result (before the cache and the writers). Each
// list can be added to, reordered and removed from; the editor's preview re-runs with them as they change.

interface TransformationsEditorProps {
  transformations: readonly TransformationDraft[];
  /** Column names to suggest: those of the last preview. */
  columns: readonly string[];
  /** The last preview's or save's 400 errors map: each message about a rule shows under the field it names. */
  errors: Record<string, string[]>;
  onChange: (transformations: TransformationDraft[]) => void;
}

const RULE_OPTIONS = ruleTypes.map((type) => ({ value: type, label: ruleLabels[type] }));

function MoveButtons({
  what,
  index,
  count,
  onMove,
  onRemove,
}: {
  what: string;
  index: number;
  count: number;
  onMove: (delta: number) => void;
  onRemove: () => void;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Move ${what} up`}
        disabled={index === 0}
        onClick={() => onMove(-1)}
      >
        <IconArrowUp size={16} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Move ${what} down`}
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      >
        <IconArrowDown size={16} />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" aria-label={`Remove ${what}`} onClick={onRemove}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}

function AddRule({ label, onAdd }: { label: string; onAdd: (type: RuleType) => void }) {
  const [type, setType] = useState<RuleType>('select');
  return (
    <Group align="flex-end" gap="sm">
      <Select
        label={`New rule for ${label}`}
        data={RULE_OPTIONS}
        value={type}
        allowDeselect={false}
        onChange={(value) => setType(ruleTypes.find((t) => t === value) ?? 'select')}
        w={240}
      />
      <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => onAdd(type)}>
        Add rule
      </Button>
    </Group>
  );
}

function TransformationCard(props: {
  transformation: TransformationDraft;
  index: number;
  count: number;
  columns: readonly string[];
  errors: Record<string, string[]>;
  onChange: (next: TransformationDraft) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}) {
  const { transformation, index, columns, onChange } = props;
  const label = `transformation ${index + 1}`;
  const setRules = (rules: KeyedRule[]) => onChange({ ...transformation, rules });
  const { rules } = transformation;
  return (
    <Paper withBorder radius="md" p="md" role="group" aria-label={`Transformation ${index + 1}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <TextInput
            label={`Name of ${label}`}
            placeholder="Optional"
            value={transformation.name}
            onChange={(e) => onChange({ ...transformation, name: e.currentTarget.value })}
          />
          <MoveButtons what={label} index={index} count={props.count} onMove={props.onMove} onRemove={props.onRemove} />
        </Group>
        {rules.length === 0 ? (
          <Text size="sm" c="dimmed">
            No rules yet: this transformation passes every row through unchanged.
          </Text>
        ) : null}
        {rules.map((keyed, ruleIndex) => (
          <Paper
            key={keyed.key}
            bg="gray.0"
            radius="sm"
            p="sm"
            role="group"
            aria-label={`Rule ${ruleIndex + 1} of ${label}`}
          >
            <Group justify="space-between" mb="xs">
              <Badge variant="light" tt="none">
                {ruleIndex + 1}. {ruleLabels[keyed.rule.type]}
              </Badge>
              <MoveButtons
                what={`rule ${ruleIndex + 1} of ${label}`}
                index={ruleIndex}
                count={rules.length}
                onMove={(delta) => setRules(moved(rules, ruleIndex, delta))}
                onRemove={() => setRules(rules.filter((r) => r.key !== keyed.key))}
              />
            </Group>
            <RuleFields
              rule={keyed.rule}
              columns={columns}
              errors={ruleErrors(props.errors, index, ruleIndex)}
              onChange={(rule) => setRules(rules.map((r) => (r.key === keyed.key ? { ...r, rule } : r)))}
            />
            {ruleLevelMessages(ruleErrors(props.errors, index, ruleIndex), keyed.rule).map((message) => (
              <Text key={message} c="red.8" size="sm" mt={4}>
                {message}
              </Text>
            ))}
          </Paper>
        ))}
        <AddRule label={label} onAdd={(type) => setRules([...rules, newRule(type)])} />
      </Stack>
    </Paper>
  );
}

export function TransformationsEditor({ transformations, columns, errors, onChange }: TransformationsEditorProps) {
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Applied in order to every result, before caching and before any download: select, rename, mask, filter, sort,
        cast, format, computed columns, limit. The preview below runs again as you change them.
      </Text>
      {transformations.map((transformation, index) => (
        <TransformationCard
          key={transformation.key}
          transformation={transformation}
          index={index}
          count={transformations.length}
          columns={columns}
          errors={errors}
          onChange={(next) => onChange(transformations.map((t) => (t.key === next.key ? next : t)))}
          onMove={(delta) => onChange(moved(transformations, index, delta))}
          onRemove={() => onChange(transformations.filter((t) => t.key !== transformation.key))}
        />
      ))}
      <Group>
        <Button
          variant="default"
          leftSection={<IconPlus size={16} />}
          onClick={() => onChange([...transformations, newTransformation()])}
        >
          Add transformation
        </Button>
      </Group>
    </Stack>
  );
}
