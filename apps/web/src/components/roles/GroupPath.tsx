import { Anchor, Text } from '@mantine/core';
import { Fragment } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { groupRef } from '@datalab/contract/api/data-roles';

type GroupRef = z.infer<typeof groupRef>;

/** A chain of groups, granting group first: Staff › Analysts. Names link to group pages when given where. */
export function GroupPath({ path, groupHref }: { path: GroupRef[]; groupHref?: ((id: number) => string) | undefined }) {
  return (
    <Text size="sm" component="span">
      {path.map((group, index) => (
        <Fragment key={group.id}>
          {index > 0 ? ' › ' : null}
          {groupHref ? (
            <Anchor component={Link} to={groupHref(group.id)} size="sm">
              {group.name}
            </Anchor>
          ) : (
            group.name
          )}
        </Fragment>
      ))}
    </Text>
  );
}
