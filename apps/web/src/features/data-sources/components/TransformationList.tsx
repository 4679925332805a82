import { Badge, Group, List, Text } from '@mantine/core';
import type { TransformationView } from '@datalab/contract/api/data-sources';

function ruleText(rule: Record<string, unknown>): string {
  const { id: _id, position: _position, type, ...settings } = rule;
  const detail = Object.entries(settings)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return detail ? `${String(type)} (${detail})` : String(type);
}

/** The transformations applied to every result, in order, each with its rules in order. */
export function TransformationList({ transformations }: { transformations: readonly TransformationView[] }) {
  if (transformations.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Results are returned as the query gives them: no transformation.
      </Text>
    );
  }
  return (
    <List type="ordered" spacing="sm">
      {transformations.map((transformation) => (
        <List.Item key={transformation.id}>
          <Text size="sm" fw={600}>
            {transformation.name || `Transformation ${transformation.position + 1}`}
          </Text>
          <Group gap={6} mt={4}>
            {transformation.rules.map((rule) => (
              <Badge key={rule.id} variant="light" color="gray" tt="none">
                {ruleText(rule)}
              </Badge>
            ))}
          </Group>
        </List.Item>
      ))}
    </List>
  );
}
