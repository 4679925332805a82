import { Badge } from '@mantine/core';
import type { TokenStatus } from '@datalab/contract/api/tokens';

const colors: Record<TokenStatus, string> = { Active: 'teal', Expired: 'gray', Revoked: 'red' };

/** A token's status: Active, Expired or Revoked (revoked wins over expired). */
export function TokenStatusBadge({ status }: { status: TokenStatus }) {
  return (
    <Badge variant="light" color={colors[status]}>
      {status}
    </Badge>
  );
}
