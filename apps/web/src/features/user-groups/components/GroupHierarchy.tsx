import { Anchor, Breadcrumbs, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { HierarchyNode } from '@datalab/contract/api/user-groups';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { plural } from '../../../lib/format.ts';
import { useGroupHierarchy } from '../api/get-group-hierarchy.ts';
import { ancestorChains, countGroups } from './hierarchy.ts';
import classes from './Hierarchy.module.css';

const linkTo = (id: number) => paths.userGroup(id, 'hierarchy');

function Descendants({ nodes }: { nodes: readonly HierarchyNode[] }) {
  return (
    <ul className={classes.tree}>
      {nodes.map((node) => (
        <li key={node.id} className={classes.node}>
          <Anchor component={Link} to={linkTo(node.id)} size="sm">
            {node.name}
          </Anchor>
          {node.children.length > 0 ? <Descendants nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** Where a group sits: every way up to a top-level group above it, the group itself, and all it contains below. */
export function GroupHierarchy({ groupId }: { groupId: number }) {
  const hierarchy = useGroupHierarchy(groupId);
  if (hierarchy.isPending) return <Loader size="sm" aria-label="Loading hierarchy" />;
  if (hierarchy.isError) return <InlineError error={hierarchy.error} />;
  const { group, ancestors, descendants } = hierarchy.data;
  const chains = ancestorChains(ancestors);
  return (
    <Stack gap="md" maw={760}>
      <Stack gap="xs">
        <Title order={2} fz="h5">
          Contained in
        </Title>
        {chains.length === 0 ? (
          <Text size="sm" c="dimmed">
            {group.name} is not nested in any group.
          </Text>
        ) : (
          <Stack gap={6} component="nav" aria-label="Groups above">
            {chains.map((chain) => (
              <Breadcrumbs key={chain.map((g) => g.id).join('>')} separator="›">
                {chain.map((g) => (
                  <Anchor key={g.id} component={Link} to={linkTo(g.id)} size="sm">
                    {g.name}
                  </Anchor>
                ))}
                <Text size="sm" fw={600}>
                  {group.name}
                </Text>
              </Breadcrumbs>
            ))}
          </Stack>
        )}
      </Stack>
      <Paper radius="md" p="md" className={classes.current} aria-current="true">
        <Group gap="sm">
          <ThemeIcon variant="light" size="lg" radius="xl">
            <IconUsersGroup size={20} />
          </ThemeIcon>
          <Stack gap={0}>
            <Text fw={700}>{group.name}</Text>
            <Text size="xs" c="dimmed">
              This group · {chains.length === 0 ? 'top level' : `${plural(countGroups(ancestors), 'group')} above`} ·{' '}
              {plural(countGroups(descendants), 'group')} below
            </Text>
          </Stack>
        </Group>
      </Paper>
      <div className={classes.below}>
        <Title order={2} fz="h5" mb={6}>
          Contains
        </Title>
        {descendants.length === 0 ? (
          <Text size="sm" c="dimmed">
            No groups are nested in {group.name}.
          </Text>
        ) : (
          <nav aria-label="Groups below">
            <Descendants nodes={descendants} />
          </nav>
        )}
      </div>
    </Stack>
  );
}
