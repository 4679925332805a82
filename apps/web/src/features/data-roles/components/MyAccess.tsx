import { Group, Loader, Stack, Text } from '@mantine/core';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { useUserDataRoles } from '../api/get-user-data-roles.ts';
import { RoleSources } from './RoleSources.tsx';

/** For those who may not see everyone's access: their own role on the collection and where it comes from. */
export function MyAccess({ userId, collectionUid }: { userId: number; collectionUid: string }) {
  const roles = useUserDataRoles(userId);
  if (roles.isPending) return <Loader size="sm" aria-label="Loading your access" />;
  if (roles.isError) return <InlineError error={roles.error} />;
  const mine = roles.data.roles.find((entry) => entry.collection.uid === collectionUid);
  return (
    <Stack gap="md">
      <Group gap="sm">
        <Text fw={500}>Your role</Text>
        <RoleBadge role={mine?.role ?? null} />
      </Group>
      {mine ? <RoleSources entry={mine} /> : null}
      <Text size="sm" c="dimmed">
        Only the collection&apos;s owners and administrators see everyone who has access. Ask an owner if someone needs
        a role here.
      </Text>
    </Stack>
  );
}
