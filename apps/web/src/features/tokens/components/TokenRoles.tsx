import { Group, Text } from '@mantine/core';
import type { Token } from '@datalab/contract/api/tokens';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';

/** A token's collections, each with the role the token carries there. */
export function TokenRoles({ token }: { token: Pick<Token, 'roles'> }) {
  if (token.roles.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Group gap={6}>
      {token.roles.map(({ collection, role }) => (
        <Group key={collection.uid} gap={4} wrap="nowrap">
          <Text size="sm">{collection.name}</Text>
          <RoleBadge role={role} size="sm" />
        </Group>
      ))}
    </Group>
  );
}
