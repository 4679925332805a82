import { Badge } from '@mantine/core';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { groupRef } from '@datalab/contract/api/data-roles';
import { paths } from '@datalab/contract/paths';

/** A user group as a badge that opens the group's members. */
export function GroupBadge({ group }: { group: z.infer<typeof groupRef> }) {
  return (
    <Badge
      component={Link}
      to={paths.userGroup(group.id, 'members')}
      variant="light"
      color="indigo"
      tt="none"
      style={{ cursor: 'pointer' }}
    >
      {group.name}
    </Badge>
  );
}
