import type { ReactNode } from 'react';
import { Badge, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconShieldCog } from '@tabler/icons-react';
import type { Token } from '@datalab/contract/api/tokens';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { RevokeTokenButton } from './RevokeTokenButton.tsx';
import { TokenRoles } from './TokenRoles.tsx';
import { TokenStatusBadge } from './TokenStatusBadge.tsx';

export const kindLabels: Record<Token['kind'], string> = { personal: 'Personal', collection: 'Collection' };

export interface TokenTableProps {
  label: string;
  tokens: Token[];
  /** Show the kind and whose token it is (lists that mix kinds and owners). */
  showOwner?: boolean;
  /** The signed-in user, to say "You" and to offer role changes on their own active personal tokens. */
  currentUserId?: number | undefined;
  onEditRoles?: (token: Token) => void;
}

function Muted({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" c="dimmed">
      {children}
    </Text>
  );
}

function BelongsTo({ token, currentUserId }: { token: Token; currentUserId: number | undefined }) {
  if (token.kind === 'collection') return <Text size="sm">{token.collection?.name ?? 'Deleted collection'}</Text>;
  if (token.owner?.id === currentUserId) return <Text size="sm">You</Text>;
  return <Text size="sm">{token.owner?.name ?? '—'}</Text>;
}

/** Who or what revoked a token, after the time: a person, its collection's deletion, or nobody (a leak report). */
function revokedByText(token: Token): string {
  if (token.revokedReason === 'collectionDeleted') return ' with its collection';
  if (token.revokedReason === 'leaked') return ' after a leak report';
  return token.revokedBy ? ` by ${token.revokedBy.name}` : '';
}

/** Tokens with their collections and roles, expiry, last use and status; revoke and role changes where allowed. */
export function TokenTable({ label, tokens, showOwner = false, currentUserId, onEditRoles }: TokenTableProps) {
  const columns: DataColumn[] = [
    { label: 'Name' },
    ...(showOwner ? [{ label: 'Kind' }, { label: 'Belongs to' }] : []),
    { label: 'Collections and roles' },
    { label: 'Expires' },
    { label: 'Last used' },
    { label: 'Status' },
    { label: 'Actions' },
  ];
  return (
    <DataTable label={label} columns={columns} minWidth={showOwner ? 1080 : 900}>
      {tokens.map((token) => {
        const canEditRoles =
          onEditRoles !== undefined &&
          token.kind === 'personal' &&
          token.status === 'Active' &&
          token.owner?.id === currentUserId;
        return (
          <Table.Tr key={token.id}>
            <Table.Td>
              <Stack gap={2}>
                <Text fw={500} size="sm">
                  {token.name}
                </Text>
                <Code fz="xs" w="fit-content">
                  {token.hint}
                </Code>
              </Stack>
            </Table.Td>
            {showOwner ? (
              <>
                <Table.Td>
                  <Badge variant="light" color={token.kind === 'personal' ? 'blue' : 'grape'} miw="max-content">
                    {kindLabels[token.kind]}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <BelongsTo token={token} currentUserId={currentUserId} />
                </Table.Td>
              </>
            ) : null}
            <Table.Td>
              <TokenRoles token={token} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{token.expiresAt ? formatDateTime(token.expiresAt) : 'Never'}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{formatDateTime(token.lastUsedAt) || 'Never'}</Text>
              {token.lastUsedAddress ? <Muted>from {token.lastUsedAddress}</Muted> : null}
            </Table.Td>
            <Table.Td>
              <Group gap={4}>
                <TokenStatusBadge status={token.status} />
                {token.revokedReason === 'leaked' ? (
                  <Badge variant="light" color="orange" leftSection={<IconAlertTriangle size={12} aria-hidden />}>
                    Reported as leaked
                  </Badge>
                ) : null}
              </Group>
              {token.revokedAt ? (
                <Muted>
                  {formatDateTime(token.revokedAt)}
                  {revokedByText(token)}
                </Muted>
              ) : null}
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                {canEditRoles ? (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconShieldCog size={14} />}
                    onClick={() => onEditRoles(token)}
                    aria-label={`Change the roles of ${token.name}`}
                  >
                    Roles
                  </Button>
                ) : null}
                {token.status === 'Revoked' ? null : <RevokeTokenButton token={token} />}
              </Group>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </DataTable>
  );
}
