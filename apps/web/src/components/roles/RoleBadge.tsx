import { Badge, type BadgeProps } from '@mantine/core';
import type { DataRole } from '@datalab/contract/api/data-roles';
import { texts } from '@datalab/contract/texts';

const roleColors: Record<DataRole, string> = { Owner: 'grape', Editor: 'blue', Reader: 'teal' };

/** A data role as a badge; no role reads 'None' (product §9's default). */
export function RoleBadge({ role, ...props }: { role: DataRole | null } & Omit<BadgeProps, 'color' | 'children'>) {
  return (
    <Badge variant="light" color={role ? roleColors[role] : 'gray'} {...props}>
      {role ?? texts.none}
    </Badge>
  );
}
