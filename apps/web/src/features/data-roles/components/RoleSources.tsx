import { Badge, Group, Text } from '@mantine/core';
import type { UserDataRoles } from '@datalab/contract/api/data-roles';

type Entry = UserDataRoles['roles'][number];

/** Where an effective role comes from: the user's own role and each group that gives one, with its nesting path. */
export function RoleSources({ entry }: { entry: Entry }) {
  return (
    <Group gap={6} wrap="wrap">
      {entry.directRole ? (
        <Badge variant="outline" color="gray" tt="none">
          Direct: {entry.directRole}
        </Badge>
      ) : null}
      {entry.viaGroups.map((group) => (
        <Group key={group.id} gap={4} wrap="nowrap">
          <Badge variant="outline" color="indigo" tt="none">
            Group {group.name}: {group.role}
          </Badge>
          {group.path.length > 1 ? (
            <Text size="xs" c="dimmed">
              through {group.path.map((step) => step.name).join(' › ')}
            </Text>
          ) : null}
        </Group>
      ))}
      {!entry.directRole && entry.viaGroups.length === 0 ? (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ) : null}
    </Group>
  );
}
