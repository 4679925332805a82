import { Checkbox, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { dependencyRefusal } from '@datalab/contract/parameter-dependencies';
import { ApiError } from '../../../lib/api-error.ts';
import { useSourceAssets } from '../api/get-source-assets.ts';
import { useParameterPreview } from '../api/preview-parameter-data.ts';
import type { ParameterDraft } from '../model/asset-draft.ts';
import type { SourceInput } from '../model/parameter-fields.ts';
import { parentValues, previewProblem } from './live-values.ts';

interface SourceFieldsProps {
  collectionUid: string;
  /** The asset edited (it cannot feed its own parameters); none while it is created. */
  assetId: number | undefined;
  parameter: ParameterDraft;
  parameters: readonly ParameterDraft[];
  source: SourceInput;
  values: Record<string, string>;
  errorAt: (path: string) => string | undefined;
  onChange: (source: SourceInput) => void;
}

/** Values from a parameter data source: which asset, which of its columns, and the parameters it takes. */
export function SourceFields(props: SourceFieldsProps) {
  const { collectionUid, assetId, parameter, parameters, source, values, errorAt, onChange } = props;
  const assets = useSourceAssets(collectionUid);
  const chosen = assets.data?.find((a) => a.id === source.dataSourceId || a.uid === source.dataSourceId);
  const dependsOn = source.dependsOn ?? [];
  const parents = parentValues(dependsOn, values);
  const columnsQuery = useParameterPreview(
    { collectionUid, dataSourceId: source.dataSourceId, dependsOn, values: parents.values },
    source.dataSourceId !== '' && parents.missing.length === 0,
  );
  const columns = columnsQuery.data?.columns.map((c) => c.name) ?? [];
  // A stored column stays choosable while the columns are not known yet (no value for a parent, a failed run).
  const columnData = [...new Set([...columns, source.valueColumn, source.labelColumn].filter((c) => c !== ''))];
  const others = parameters.filter((p) => p.name !== parameter.name);
  const nodes = parameters.map((p) => ({ name: p.name, allowedValues: p.rest.allowedValues }));
  const problem = columnsQuery.error instanceof ApiError ? previewProblem(columnsQuery.error) : null;

  return (
    <Stack gap="sm">
      <Select
        label="Data asset"
        aria-label={`Data asset of ${parameter.name}`}
        description="An asset of this collection; its rows are the options."
        placeholder={assets.isLoading ? 'Loading the assets…' : 'Choose an asset'}
        data={(assets.data ?? []).filter((a) => a.id !== assetId).map((a) => ({ value: String(a.id), label: a.name }))}
        value={chosen ? String(chosen.id) : null}
        searchable
        error={errorAt('allowedValues.dataSourceId')}
        onChange={(next) => onChange({ ...source, dataSourceId: next === null ? '' : Number(next) })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Value column"
          aria-label={`Value column of ${parameter.name}`}
          description="What a caller sends"
          data={columnData}
          value={source.valueColumn === '' ? null : source.valueColumn}
          searchable
          error={errorAt('allowedValues.valueColumn')}
          onChange={(next) => onChange({ ...source, valueColumn: next ?? '' })}
        />
        <Select
          label="Label column"
          aria-label={`Label column of ${parameter.name}`}
          description="What a caller reads in the dropdown"
          data={columnData}
          value={source.labelColumn === '' ? null : source.labelColumn}
          searchable
          error={errorAt('allowedValues.labelColumn')}
          onChange={(next) => onChange({ ...source, labelColumn: next ?? '' })}
        />
      </SimpleGrid>
      {parents.missing.length > 0 ? (
        <Text size="xs" c="dimmed">
          The columns show once {parents.missing.join(', ')} has a value (in the live result).
        </Text>
      ) : problem ? (
        <Text size="xs" c="red">
          {problem}
        </Text>
      ) : null}
      <Checkbox.Group
        label="Depends on"
        aria-label={`${parameter.name} depends on`}
        description={
          chosen
            ? `The values of these parameters go to ${chosen.name} under the same names (dependent dropdowns).`
            : 'The values of these parameters go to the asset under the same names (dependent dropdowns).'
        }
        value={[...dependsOn]}
        error={errorAt('allowedValues.dependsOn')}
        onChange={(next) =>
          onChange({ ...source, dependsOn: others.map((p) => p.name).filter((n) => next.includes(n)) })
        }
      >
        <Stack gap={6} mt={6}>
          {others.length === 0 ? (
            <Text size="sm" c="dimmed">
              No other parameter to depend on.
            </Text>
          ) : null}
          {others.map((other) => {
            const isChecked = dependsOn.includes(other.name);
            const refusal = isChecked ? undefined : dependencyRefusal(nodes, parameter.name, other.name);
            return (
              <Checkbox
                key={other.name}
                value={other.name}
                label={other.name}
                disabled={refusal !== undefined}
                description={refusal ? `Not offered: ${refusal}` : undefined}
              />
            );
          })}
        </Stack>
      </Checkbox.Group>
    </Stack>
  );
}
