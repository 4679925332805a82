import { Stack, Title } from '@mantine/core';
import { AccessTable, type AccessTableProps } from './AccessTable.tsx';

/** One kind of holder (people, groups) under a heading that counts them. */
export function AccessSection({ title, ...table }: { title: string } & AccessTableProps) {
  return (
    <Stack gap="xs">
      <Title order={2} fz="h4">
        {title} ({table.rows.length})
      </Title>
      <AccessTable {...table} />
    </Stack>
  );
}
