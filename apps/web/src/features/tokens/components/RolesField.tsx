import { Input, NativeSelect, Table, Text } from '@mantine/core';
import type { DataRole } from '@datalab/contract/api/data-roles';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { rolesUpTo, type GrantableCollection, type RoleChoice } from '../model/roles.ts';

interface RolesFieldProps {
  collections: GrantableCollection[];
  value: RoleChoice;
  onChange: (value: RoleChoice) => void;
  error?: string | undefined;
}

const NONE = '';

/** The token's role on each collection the user holds a role on: none, or up to the user's own. */
export function RolesField({ collections, value, onChange, error }: RolesFieldProps) {
  const handleChange = (uid: string, role: string) => {
    const next = { ...value };
    if (role === NONE) delete next[uid];
    else next[uid] = role as DataRole;
    onChange(next);
  };
  return (
    <Input.Wrapper
      label="Collections and roles"
      description="What the token may do on each collection. It can never do more than you can: if you lose a role, your token loses it too."
      error={error}
    >
      {collections.length === 0 ? (
        <Text size="sm" mt="xs">
          You hold no role on any collection yet, so a token could not read anything. Ask a collection’s Owner for
          access.
        </Text>
      ) : (
        <Table mt="xs" verticalSpacing="xs" aria-label="Collections and roles">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Collection</Table.Th>
              <Table.Th>Your role</Table.Th>
              <Table.Th>Token role</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {collections.map((collection) => (
              <Table.Tr key={collection.uid}>
                <Table.Td>
                  <Text size="sm">{collection.name}</Text>
                </Table.Td>
                <Table.Td>
                  <RoleBadge role={collection.role} size="sm" />
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    aria-label={`Token role on ${collection.name}`}
                    size="xs"
                    w={160}
                    value={value[collection.uid] ?? NONE}
                    onChange={(event) => handleChange(collection.uid, event.currentTarget.value)}
                    data={[
                      { value: NONE, label: 'No access' },
                      ...rolesUpTo(collection.role).map((role) => ({ value: role, label: role })),
                    ]}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Input.Wrapper>
  );
}
