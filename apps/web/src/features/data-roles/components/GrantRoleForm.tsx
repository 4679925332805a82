import { useState } from 'react';
import { Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { dataRoles, type DataRole } from '@datalab/contract/api/data-roles';
import type { Suggestion } from '../../../components/pickers/SuggestionPicker.tsx';
import type { PickerSlot } from '../../../components/pickers/picker-slot.ts';

export type Grantee = 'user' | 'group';

export interface GrantRoleFormProps {
  renderUserPicker: PickerSlot;
  renderGroupPicker: PickerSlot;
  /** Holders already listed (changed in the table instead) and yourself. */
  excludedUserIds: readonly number[];
  excludedGroupIds: readonly number[];
  onGrant: (grant: { kind: Grantee; id: number; name: string; role: DataRole }) => Promise<unknown>;
}

/** Gives a user or a group a role on the collection: pick who, pick the role, grant. */
export function GrantRoleForm({
  renderUserPicker,
  renderGroupPicker,
  excludedUserIds,
  excludedGroupIds,
  onGrant,
}: GrantRoleFormProps) {
  const [kind, setKind] = useState<Grantee>('user');
  const [selected, setSelected] = useState<Suggestion | null>(null);
  const [role, setRole] = useState<DataRole>('Reader');
  const [isGranting, setGranting] = useState(false);

  const handleGrant = async () => {
    if (!selected) return;
    setGranting(true);
    try {
      await onGrant({ kind, id: selected.id, name: selected.label, role });
      setSelected(null);
    } catch {
      // The API client reported the refusal; the choice stays for another try.
    } finally {
      setGranting(false);
    }
  };

  const picker = kind === 'user' ? renderUserPicker : renderGroupPicker;
  return (
    <Stack gap="sm">
      <Group gap="sm" align="center">
        <Text size="sm" fw={500}>
          Grant a role to a
        </Text>
        <SegmentedControl
          size="xs"
          aria-label="Grant to"
          value={kind}
          onChange={(value) => {
            setKind(value === 'group' ? 'group' : 'user');
            setSelected(null);
          }}
          data={[
            { value: 'user', label: 'User' },
            { value: 'group', label: 'Group' },
          ]}
        />
      </Group>
      <Group gap="sm" align="flex-end" wrap="nowrap">
        <div style={{ flex: 1, maxWidth: 420 }}>
          {picker({
            label: kind === 'user' ? 'User' : 'Group',
            selected,
            onSelect: setSelected,
            excludedIds: kind === 'user' ? excludedUserIds : excludedGroupIds,
          })}
        </div>
        <Select
          label="Role"
          w={150}
          data={[...dataRoles]}
          value={role}
          allowDeselect={false}
          onChange={(value) => setRole(dataRoles.find((candidate) => candidate === value) ?? 'Reader')}
        />
        <Button
          leftSection={<IconUserPlus size={16} />}
          disabled={!selected}
          loading={isGranting}
          onClick={() => void handleGrant()}
        >
          Grant
        </Button>
      </Group>
    </Stack>
  );
}
