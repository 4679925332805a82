import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, type ReactNode } from 'react';
import { newParameter, type ParameterDraft } from '../model/asset-draft.ts';
import { parameterIssues } from '../model/parameter-fields.ts';
import type { PlaceholderSyntax } from '../model/placeholders.ts';
import { ParameterCard } from './ParameterCard.tsx';

interface ParameterDefinitionsProps {
  parameters: readonly ParameterDraft[];
  /** The names the SQL or the request uses, in order. */
  detected: readonly string[];
  /** How the source marks a parameter (`:name` in SQL, `{name}` in a request). */
  syntax: PlaceholderSyntax;
  onChange: (parameters: ParameterDraft[]) => void;
  collectionUid: string;
  /** The asset edited; none while it is created. */
  assetId?: number;
  /** The editor's run values, which the live dropdowns show and set. */
  values: Record<string, string>;
  onValuesChange: (values: Record<string, string>) => void;
  /** The last save's refusals for these parameters (keys like '1.min'), while the parameters are as sent. */
  savedErrors?: Record<string, string[]>;
}

const emptyHints: Record<PlaceholderSyntax['source'], ReactNode> = {
  SQL: (
    <>
      No parameters. Write <code>:name</code> in the SQL where a caller&apos;s value goes; it is bound by the driver,
      never pasted into the text.
    </>
  ),
  request: (
    <>
      No parameters. Write <code>{'{name}'}</code> in the path, a query parameter, a header or the body where a
      caller&apos;s value goes; it is encoded so that it can never change the host or the path.
    </>
  ),
};

/**
 * The parameters found in the source, offered for definition, and each definition as a card: what it is, its bounds,
 * its allowed values (fixed, or from a parameter data source with the parameters it depends on) and the dropdown a
 * caller will see. Field errors come from the contract's schema as the fields change (so they clear as a field
 * becomes valid), and from the last save while nothing changed since.
 */
export function ParameterDefinitions(props: ParameterDefinitionsProps) {
  const { parameters, detected, syntax, onChange, values, onValuesChange, savedErrors = {} } = props;
  const defined = new Set(parameters.map((p) => p.name));
  const undefinedNames = detected.filter((name) => !defined.has(name));
  const issues = useMemo(() => parameterIssues(parameters), [parameters]);
  const errorAt = (index: number) => (path: string) => {
    const key = `${index}.${path}`;
    const found = [...(issues[key] ?? []), ...(savedErrors[key] ?? [])];
    return found.length > 0 ? [...new Set(found)].join(' ') : undefined;
  };

  return (
    <Stack gap="sm">
      {undefinedNames.length > 0 ? (
        <Group gap="xs" role="group" aria-label={`Parameters found in the ${syntax.source}, not defined yet`}>
          <Text size="sm">Used in the {syntax.source}, not defined yet:</Text>
          {undefinedNames.map((name) => (
            <Button
              key={name}
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => onChange([...parameters, newParameter(name)])}
            >
              Define {syntax.mark(name)}
            </Button>
          ))}
        </Group>
      ) : null}
      {parameters.length === 0 ? (
        <Text size="sm" c="dimmed">
          {emptyHints[syntax.source]}
        </Text>
      ) : (
        parameters.map((p, index) => (
          <ParameterCard
            // By place: a card keeps its inputs (and their focus) while its name is edited.
            key={index}
            index={index}
            parameter={p}
            parameters={parameters}
            syntax={syntax}
            isUsed={detected.includes(p.name)}
            collectionUid={props.collectionUid}
            assetId={props.assetId}
            errorAt={errorAt(index)}
            values={values}
            onValuesChange={onValuesChange}
            onChange={(next) => onChange(parameters.map((item, i) => (i === index ? next : item)))}
            onRemove={() => onChange(parameters.filter((_, i) => i !== index))}
          />
        ))
      )}
    </Stack>
  );
}
