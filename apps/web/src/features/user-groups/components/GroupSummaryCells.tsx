import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { UserGroupSummary } from '@datalab/contract/api/user-groups';
import { paths } from '@datalab/contract/paths';

/** The first cells of a group's row: its name (a link to it), description, members and child groups. */
export function GroupSummaryCells({ group, descriptionLines }: { group: UserGroupSummary; descriptionLines: number }) {
  return (
    <>
      <Table.Td>
        <Anchor component={Link} to={paths.userGroup(group.id, 'members')} fw={500}>
          {group.name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={group.description ? undefined : 'dimmed'} lineClamp={descriptionLines}>
          {group.description || 'No description'}
        </Text>
      </Table.Td>
      <Table.Td ta="right">{group.memberCount}</Table.Td>
      <Table.Td ta="right">{group.childCount}</Table.Td>
    </>
  );
}
