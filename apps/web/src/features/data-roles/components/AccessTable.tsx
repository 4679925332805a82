import { useState, type ReactNode } from 'react';
import { ActionIcon, Anchor, Group, Select, Stack, Table, Text } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { dataRoles, roleRank, type DataRole } from '@datalab/contract/api/data-roles';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { LowerRoleConfirm, type PendingLowering } from './LowerRoleConfirm.tsx';

export interface AccessRow {
  id: number;
  name: string;
  /** Username, or what kind of holder it is. */
  detail?: string | null;
  role: DataRole;
  href?: string;
  /** Shown instead of the controls (e.g. your own row). */
  lockedReason?: string;
}

export interface AccessEditing {
  /** 'user' or 'group', for labels. */
  noun: string;
  collectionName: string;
  onChange: (id: number, role: DataRole) => void;
  onWithdraw: (id: number) => Promise<unknown>;
  isBusy?: boolean;
}

export interface AccessTableProps {
  caption: string;
  rows: AccessRow[];
  empty: ReactNode;
  /** Without it the table is read-only. */
  editing?: AccessEditing;
}

const columns: DataColumn[] = [{ label: 'Name' }, { label: 'Role', w: 220 }];
const editingColumns: DataColumn[] = [...columns, { label: 'Withdraw', w: 90 }];

/** Holders of roles on one collection (people or groups): read-only, or with a role select and withdraw. */
export function AccessTable({ caption, rows, empty, editing }: AccessTableProps) {
  const [lowering, setLowering] = useState<PendingLowering | null>(null);
  // A stronger role is given at once; a weaker one asks first, naming what is lost.
  const handleRoleChange = (row: AccessRow, next: DataRole) => {
    if (!editing) return;
    const apply = () => editing.onChange(row.id, next);
    if (roleRank[next] >= roleRank[row.role]) apply();
    else setLowering({ name: row.name, from: row.role, to: next, noun: editing.noun, onConfirm: apply });
  };
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed" py="sm">
        {empty}
      </Text>
    );
  }
  return (
    <>
      <DataTable label={caption} columns={editing ? editingColumns : columns}>
        {rows.map((row) => (
          <Table.Tr key={row.id}>
            <Table.Td>
              <Group gap="xs">
                {row.href ? (
                  <Anchor component={Link} to={row.href} fw={500}>
                    {row.name}
                  </Anchor>
                ) : (
                  <Text fw={500}>{row.name}</Text>
                )}
                {row.detail ? (
                  <Text size="sm" c="dimmed">
                    {row.detail}
                  </Text>
                ) : null}
              </Group>
            </Table.Td>
            <Table.Td>
              {editing && !row.lockedReason ? (
                <Select
                  aria-label={`Role of ${row.name}`}
                  size="xs"
                  w={160}
                  data={[...dataRoles]}
                  value={row.role}
                  allowDeselect={false}
                  disabled={editing.isBusy}
                  onChange={(role) => {
                    const next = dataRoles.find((candidate) => candidate === role);
                    if (next && next !== row.role) handleRoleChange(row, next);
                  }}
                />
              ) : (
                <Stack gap={2} align="flex-start">
                  <RoleBadge role={row.role} />
                  {editing && row.lockedReason ? (
                    <Text size="xs" c="dimmed">
                      {row.lockedReason}
                    </Text>
                  ) : null}
                </Stack>
              )}
            </Table.Td>
            {editing ? (
              <Table.Td>
                {row.lockedReason ? null : (
                  <ConfirmAction
                    title="Withdraw role"
                    message={
                      <>
                        {row.name} loses the {row.role} role on <strong>{editing.collectionName}</strong>
                        {editing.noun === 'group' ? ', and so do its members unless they hold a role another way' : ''}.
                      </>
                    }
                    confirmLabel="Withdraw"
                    onConfirm={() => editing.onWithdraw(row.id)}
                  >
                    {(open) => (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Withdraw the role of ${row.name}`}
                        onClick={open}
                      >
                        <IconUserMinus size={18} />
                      </ActionIcon>
                    )}
                  </ConfirmAction>
                )}
              </Table.Td>
            ) : null}
          </Table.Tr>
        ))}
      </DataTable>
      {editing ? (
        <LowerRoleConfirm
          pending={lowering}
          collectionName={editing.collectionName}
          onClose={() => setLowering(null)}
        />
      ) : null}
    </>
  );
}
