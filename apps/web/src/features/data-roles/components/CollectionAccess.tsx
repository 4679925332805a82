import { Loader, Stack } from '@mantine/core';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { useCollectionDataRoles } from '../api/get-collection-data-roles.ts';
import { AccessSection } from './AccessSection.tsx';
import { groupRows, userRows, type RowOptions } from './access-rows.ts';
import { IndirectMembers } from './IndirectMembers.tsx';

/** Read-only: who holds which role on a collection, people and groups (Owners and administrators). */
export function CollectionAccess({ uid, ...options }: { uid: string } & RowOptions) {
  const roles = useCollectionDataRoles(uid);
  if (roles.isPending) return <Loader size="sm" aria-label="Loading access" />;
  if (roles.isError) return <InlineError error={roles.error} />;
  return (
    <Stack gap="xl">
      <AccessSection
        title="People"
        caption="People with a role"
        rows={userRows(roles.data, options)}
        empty="Nobody holds a role here directly."
      />
      <AccessSection
        title="Groups"
        caption="Groups with a role"
        rows={groupRows(roles.data, options)}
        empty="No group holds a role here. A group's role reaches all its members, including those of groups nested in it."
      />
      <IndirectMembers roles={roles.data} groupHref={options.groupHref} />
    </Stack>
  );
}
