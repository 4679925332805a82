import { Select, Switch, Table, Text, TextInput } from '@mantine/core';
import { parameterTypes } from '@datalab/contract/parameters';
import type { PlaygroundParameter } from '../model/playground.ts';
import type { PlaceholderSyntax } from '../model/placeholders.ts';

const TYPE_OPTIONS = parameterTypes.map((type) => ({ value: type, label: type }));

interface PlaygroundParametersProps {
  names: readonly string[];
  syntax: PlaceholderSyntax;
  settings: Record<string, PlaygroundParameter>;
  onSettingsChange: (name: string, setting: PlaygroundParameter) => void;
  values: Record<string, string>;
  onValuesChange: (values: Record<string, string>) => void;
  errors: Record<string, string[]>;
}

/** Each placeholder the source uses, with the type its value is checked as and the value to run with. */
export function PlaygroundParameters(props: PlaygroundParametersProps) {
  const { names, syntax, settings, onSettingsChange, values, onValuesChange, errors } = props;
  if (names.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No parameters. Write {syntax.mark('name')} in the {syntax.source} where a value goes, and give it here.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Parameter</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>List</Table.Th>
            <Table.Th>Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {names.map((name) => {
            const setting = settings[name] ?? { type: 'string', list: false };
            return (
              <Table.Tr key={name}>
                <Table.Td ff="monospace">{syntax.mark(name)}</Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Type of ${name}`}
                    data={TYPE_OPTIONS}
                    value={setting.type}
                    allowDeselect={false}
                    w={130}
                    onChange={(value) =>
                      onSettingsChange(name, {
                        ...setting,
                        type: parameterTypes.find((type) => type === value) ?? setting.type,
                      })
                    }
                  />
                </Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={`${name} is a list`}
                    checked={setting.list}
                    onChange={(e) => onSettingsChange(name, { ...setting, list: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={`Value of ${syntax.mark(name)}`}
                    placeholder={setting.list ? 'Values, separated by commas' : undefined}
                    value={values[name] ?? ''}
                    error={errors[name]?.join(' ')}
                    onChange={(e) => onValuesChange({ ...values, [name]: e.currentTarget.value })}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
