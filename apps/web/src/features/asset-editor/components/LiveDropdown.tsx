import { Alert, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { ApiError } from '../../../lib/api-error.ts';
import { useParameterPreview } from '../api/preview-parameter-data.ts';
import type { ParameterDraft } from '../model/asset-draft.ts';
import { textOf, type SourceInput } from '../model/parameter-fields.ts';
import { parentValues, previewProblem } from './live-values.ts';

interface LiveDropdownProps {
  collectionUid: string;
  parameter: ParameterDraft;
  /** The editor's run values: the parents' current values, and this parameter's own choice. */
  values: Record<string, string>;
  onValueChange: (value: string) => void;
}

interface Option {
  value: string;
  label: string;
}

/** The dropdown a caller will see, with the value chosen here used by the editor's run (and by dependents). */
function Dropdown(props: LiveDropdownProps & { options: Option[]; placeholder?: string; disabled?: boolean }) {
  const { parameter, values, onValueChange, options, placeholder, disabled } = props;
  const common = {
    label: parameter.label.trim() || parameter.name,
    description: typeof parameter.rest.description === 'string' ? parameter.rest.description : undefined,
    required: parameter.required,
    // Mantine refuses two options with one value (a fixed list being typed may have them for a moment).
    data: options.filter((o, i) => options.findIndex((other) => other.value === o.value) === i),
    placeholder,
    disabled,
    searchable: true,
    clearable: true,
    nothingFoundMessage: 'No matching option',
  };
  const current = values[parameter.name] ?? '';
  if (parameter.list) {
    const chosen = current === '' ? [] : current.split(',');
    return <MultiSelect {...common} value={chosen} onChange={(next) => onValueChange(next.join(','))} />;
  }
  return <Select {...common} value={current === '' ? null : current} onChange={(next) => onValueChange(next ?? '')} />;
}

function FromSource(props: LiveDropdownProps & { source: SourceInput }) {
  const { collectionUid, source, values } = props;
  const dependsOn = source.dependsOn ?? [];
  const parents = parentValues(dependsOn, values);
  const isReady = source.dataSourceId !== '' && source.valueColumn !== '';
  const preview = useParameterPreview(
    {
      collectionUid,
      dataSourceId: source.dataSourceId,
      valueColumn: source.valueColumn,
      ...(source.labelColumn === '' ? {} : { labelColumn: source.labelColumn }),
      dependsOn,
      values: parents.values,
    },
    isReady && parents.missing.length === 0,
  );
  if (source.dataSourceId === '') return <Hint>Choose the data asset to see the options.</Hint>;
  if (parents.missing.length > 0) {
    return <Dropdown {...props} options={[]} disabled placeholder={`Choose ${parents.missing.join(', ')} first`} />;
  }
  if (!isReady) return <Hint>Choose the value column to see the options.</Hint>;
  if (preview.error instanceof ApiError) {
    return (
      <Alert color="red" title="The options could not be loaded">
        {previewProblem(preview.error)}
      </Alert>
    );
  }
  const options = (preview.data?.options ?? []).map((o) => ({ value: textOf(o.value), label: o.label }));
  return (
    <Stack gap={4}>
      <Dropdown {...props} options={options} placeholder={preview.isFetching ? 'Loading options…' : undefined} />
      {preview.data ? (
        <Text size="xs" c="dimmed">
          {preview.data.truncated
            ? `The first ${options.length} options; a caller gets all of them.`
            : `${options.length} ${options.length === 1 ? 'option' : 'options'}`}
          {dependsOn.length > 0 ? ` for ${dependsOn.map((n) => `${n} = ${values[n] ?? ''}`).join(', ')}` : ''}
        </Text>
      ) : null}
    </Stack>
  );
}

function Hint({ children }: { children: string }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** The parameter as a caller will be offered it: its fixed options, or its data source's with the parents' values. */
export function LiveDropdown(props: LiveDropdownProps) {
  const allowed = props.parameter.rest.allowedValues;
  if (allowed?.kind === 'fixed') {
    const options = allowed.options
      .filter((o) => textOf(o.value) !== '')
      .map((o) => ({ value: textOf(o.value), label: o.label ?? textOf(o.value) }));
    return <Dropdown {...props} options={options} />;
  }
  if (allowed?.kind === 'dataSource') return <FromSource {...props} source={allowed} />;
  return <Hint>Callers type any value of the type, within the bounds and the pattern.</Hint>;
}
