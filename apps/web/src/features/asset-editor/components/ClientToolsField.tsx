import { Checkbox, SimpleGrid } from '@mantine/core';
import { clientTools, type ClientTool } from '@datalab/contract/api/data-sources';
import { clientToolOptions } from '../model/client-tools.ts';

interface ClientToolsFieldProps {
  value: readonly ClientTool[];
  onChange: (tools: ClientTool[]) => void;
}

/** Which client tools the asset's page gives ready-to-paste snippets for. */
export function ClientToolsField({ value, onChange }: ClientToolsFieldProps) {
  return (
    <Checkbox.Group
      label="Snippets on the asset's page"
      description="The callers of this asset get a ready-to-paste call for each tool ticked."
      value={[...value]}
      // Kept in the contract's order whatever the order of the clicks.
      onChange={(next) => onChange(clientTools.filter((tool) => next.includes(tool)))}
    >
      <SimpleGrid cols={{ base: 2, sm: 3 }} mt="xs">
        {clientToolOptions.map((option) => (
          <Checkbox key={option.value} value={option.value} label={option.label} />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}
