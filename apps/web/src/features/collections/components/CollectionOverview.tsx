import { Code, DataList, Group, Text } from '@mantine/core';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { texts } from '@datalab/contract/texts';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { formatDateTime, plural } from '../../../lib/format.ts';

function roleNote(collection: CollectionDetail): string | null {
  if (collection.myRole === null) return 'You see it as an administrator; calling its data assets needs a data role.';
  if (collection.myRole === 'Owner') return 'You can change it, its connections and data assets, and who has access.';
  if (collection.myRole === 'Editor') return 'You can create and change its data assets.';
  return 'You can see and call its data assets.';
}

/** Who owns it, for anyone who can read it: people by name, then groups holding Owner. */
function ownerText(collection: CollectionDetail): string {
  const people = collection.owners.map((owner) => (owner.username ? `${owner.name} (${owner.username})` : owner.name));
  const groups = collection.ownerGroups.map((group) => `group ${group.name}`);
  return [...people, ...groups].join(', ');
}

/** What a collection is, who owns and made it, and what the caller may do in it. */
export function CollectionOverview({ collection }: { collection: CollectionDetail }) {
  const createdBy = collection.createdBy;
  return (
    <DataList labelWidth={180} gap="md" withDivider>
      <DataList.Item>
        <DataList.ItemLabel>Name</DataList.ItemLabel>
        <DataList.ItemValue>{collection.name}</DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Description</DataList.ItemLabel>
        <DataList.ItemValue>
          <Text inherit c={collection.description ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-line' }}>
            {collection.description || texts.notSet}
          </Text>
        </DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Your role</DataList.ItemLabel>
        <DataList.ItemValue>
          <Group gap="sm">
            <RoleBadge role={collection.myRole} />
            <Text size="sm" c="dimmed">
              {roleNote(collection)}
            </Text>
          </Group>
        </DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Owners</DataList.ItemLabel>
        <DataList.ItemValue>{ownerText(collection) || texts.none}</DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Created</DataList.ItemLabel>
        <DataList.ItemValue>
          {formatDateTime(collection.createdAt)}
          {createdBy ? ` by ${createdBy.name}${createdBy.username ? ` (${createdBy.username})` : ''}` : ''}
        </DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Last changed</DataList.ItemLabel>
        <DataList.ItemValue>{formatDateTime(collection.updatedAt)}</DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Contents</DataList.ItemLabel>
        <DataList.ItemValue>
          {plural(collection.assetCount, 'data asset')}, {plural(collection.connectionCount, 'connection')}
        </DataList.ItemValue>
      </DataList.Item>
      <DataList.Item>
        <DataList.ItemLabel>Collection ID</DataList.ItemLabel>
        <DataList.ItemValue>
          <Code>{collection.uid}</Code>
        </DataList.ItemValue>
      </DataList.Item>
    </DataList>
  );
}
