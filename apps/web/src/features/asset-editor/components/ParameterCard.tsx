import {
  ActionIcon,
  Badge,
  Card,
  Grid,
  Group,
  Input,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { MAX_PATTERN_LENGTH } from '@datalab/contract/patterns';
import { parameterTypes, type ParameterDraft } from '../model/asset-draft.ts';
import {
  allowedKindOf,
  allowedValuesFor,
  boundValue,
  boundsOf,
  textOf,
  withRest,
  type AllowedKind,
} from '../model/parameter-fields.ts';
import type { PlaceholderSyntax } from '../model/placeholders.ts';
import { FixedValuesFields } from './FixedValuesFields.tsx';
import { LiveDropdown } from './LiveDropdown.tsx';
import { SourceFields } from './SourceFields.tsx';

const TYPE_OPTIONS = parameterTypes.map((type) => ({ value: type, label: type }));
const KIND_OPTIONS: { value: AllowedKind; label: string }[] = [
  { value: 'any', label: 'Any value' },
  { value: 'fixed', label: 'Fixed list' },
  { value: 'dataSource', label: 'From a data asset' },
];

export interface ParameterCardProps {
  index: number;
  parameter: ParameterDraft;
  parameters: readonly ParameterDraft[];
  syntax: PlaceholderSyntax;
  isUsed: boolean;
  collectionUid: string;
  assetId: number | undefined;
  /** The message for a field of this parameter ('min', 'allowedValues.dependsOn'), if any. */
  errorAt: (path: string) => string | undefined;
  values: Record<string, string>;
  onValuesChange: (values: Record<string, string>) => void;
  onChange: (parameter: ParameterDraft) => void;
  onRemove: () => void;
}

const MONOSPACE = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** The default beside the bounds the type has (a number's or a date's value, a text's length), then a text's pattern. */
function DefaultAndBounds({
  parameter,
  errorAt,
  onChange,
}: Pick<ParameterCardProps, 'parameter' | 'errorAt' | 'onChange'>) {
  const kind = boundsOf(parameter.type);
  const isDate = parameter.type === 'date' || parameter.type === 'date-time';
  const [minLabel, maxLabel] = kind === 'length' ? ['Minimum length', 'Maximum length'] : ['Minimum', 'Maximum'];
  const hint =
    kind === 'length'
      ? 'Characters, inclusive'
      : isDate
        ? `${parameter.type === 'date' ? 'YYYY-MM-DD' : 'ISO 8601'}, inclusive`
        : 'Inclusive';
  const bound = (key: 'min' | 'max', label: string) => (
    <TextInput
      label={label}
      aria-label={`${label} of ${parameter.name}`}
      description={hint}
      inputMode={isDate ? undefined : 'numeric'}
      value={textOf(parameter.rest[key])}
      error={errorAt(key)}
      onChange={(e) => onChange(withRest(parameter, key, boundValue(parameter.type, e.currentTarget.value)))}
    />
  );
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label="Default"
          aria-label={`Default of ${parameter.name}`}
          description={parameter.list ? 'Values, separated by commas' : 'When a caller gives none'}
          value={parameter.defaultText}
          error={errorAt('default')}
          onChange={(e) => onChange({ ...parameter, defaultText: e.currentTarget.value })}
        />
        {kind === 'none' ? null : bound('min', minLabel)}
        {kind === 'none' ? null : bound('max', maxLabel)}
      </SimpleGrid>
      {kind === 'length' ? (
        <TextInput
          label="Pattern"
          aria-label={`Pattern of ${parameter.name}`}
          description={`RE2 syntax, matched against the whole value; at most ${MAX_PATTERN_LENGTH} characters`}
          styles={MONOSPACE}
          maxLength={MAX_PATTERN_LENGTH}
          value={parameter.rest.pattern ?? ''}
          error={errorAt('pattern')}
          onChange={(e) => onChange(withRest(parameter, 'pattern', e.currentTarget.value || undefined))}
        />
      ) : null}
    </>
  );
}

/** One parameter whole: what it is, the values it takes and where they come from, beside the dropdown callers see. */
export function ParameterCard(props: ParameterCardProps) {
  const { index, parameter, syntax, isUsed, errorAt, values, onValuesChange, onChange, onRemove } = props;
  const allowed = parameter.rest.allowedValues;
  const update = (change: Partial<ParameterDraft>) => onChange({ ...parameter, ...change });
  const title = parameter.name.trim() === '' ? `Parameter ${index + 1}` : syntax.mark(parameter.name);

  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={`Parameter ${parameter.name}`}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="xs">
          <Title order={3} fz="h5" ff="monospace">
            {title}
          </Title>
          {isUsed ? null : (
            <Badge size="xs" color="red" variant="light">
              not in the {syntax.source}
            </Badge>
          )}
        </Group>
        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${parameter.name}`} onClick={onRemove}>
          <IconTrash size={16} />
        </ActionIcon>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label="Name"
                aria-label={`Name of ${parameter.name}`}
                required
                maxLength={63}
                styles={MONOSPACE}
                value={parameter.name}
                error={errorAt('name')}
                onChange={(e) => update({ name: e.currentTarget.value })}
              />
              <TextInput
                label="Label"
                aria-label={`Label of ${parameter.name}`}
                maxLength={200}
                value={parameter.label}
                error={errorAt('label')}
                onChange={(e) => update({ label: e.currentTarget.value })}
              />
              <Select
                label="Type"
                aria-label={`Type of ${parameter.name}`}
                data={TYPE_OPTIONS}
                value={parameter.type}
                allowDeselect={false}
                onChange={(value) => update({ type: parameterTypes.find((t) => t === value) ?? parameter.type })}
              />
            </SimpleGrid>
            <Textarea
              label="Description"
              aria-label={`Description of ${parameter.name}`}
              autosize
              minRows={1}
              maxLength={2000}
              value={textOf(parameter.rest.description)}
              error={errorAt('description')}
              onChange={(e) => onChange(withRest(parameter, 'description', e.currentTarget.value || undefined))}
            />
            <Group gap="xl">
              <Switch
                label="A list of values"
                aria-label={`${parameter.name} is a list`}
                checked={parameter.list}
                onChange={(e) => update({ list: e.currentTarget.checked })}
              />
              <Switch
                label="Required"
                aria-label={`${parameter.name} is required`}
                checked={parameter.required}
                onChange={(e) => update({ required: e.currentTarget.checked })}
              />
            </Group>
            <DefaultAndBounds parameter={parameter} errorAt={errorAt} onChange={onChange} />
            <Stack gap={6}>
              <Input.Label id={`allowed-${index}`}>Allowed values</Input.Label>
              <SegmentedControl
                aria-labelledby={`allowed-${index}`}
                data={KIND_OPTIONS}
                value={allowedKindOf(parameter)}
                onChange={(kind) =>
                  onChange(withRest(parameter, 'allowedValues', allowedValuesFor(kind as AllowedKind)))
                }
                style={{ alignSelf: 'flex-start' }}
              />
              {allowed?.kind === 'fixed' ? (
                <FixedValuesFields
                  name={parameter.name}
                  type={parameter.type}
                  options={allowed.options}
                  errorAt={errorAt}
                  onChange={(options) => onChange(withRest(parameter, 'allowedValues', { ...allowed, options }))}
                />
              ) : null}
              {allowed?.kind === 'dataSource' ? (
                <SourceFields
                  collectionUid={props.collectionUid}
                  assetId={props.assetId}
                  parameter={parameter}
                  parameters={props.parameters}
                  source={allowed}
                  values={values}
                  errorAt={errorAt}
                  onChange={(source) => onChange(withRest(parameter, 'allowedValues', source))}
                />
              ) : null}
            </Stack>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card
            withBorder
            radius="sm"
            padding="sm"
            bg="var(--mantine-color-gray-0)"
            aria-label={`Live result of ${parameter.name}`}
            component="section"
          >
            <Text size="xs" fw={600} tt="uppercase" c="dimmed" mb={6}>
              Live result
            </Text>
            <LiveDropdown
              collectionUid={props.collectionUid}
              parameter={parameter}
              values={values}
              onValueChange={(value) => onValuesChange({ ...values, [parameter.name]: value })}
            />
          </Card>
        </Grid.Col>
      </Grid>
    </Card>
  );
}
