import { Alert, Code, Stack, Table, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { PortalConfig } from '@datalab/contract/api/portal-config';

/** Embedded mode only: the built-in provider's demo accounts, offered on its sign-in page. */
export function DemoAccounts({ accounts }: { accounts: PortalConfig['demoAccounts'] }) {
  return (
    <Stack gap="md" component="section" aria-labelledby="demo-accounts">
      <Title order={2} fz="h3" id="demo-accounts">
        Demo accounts
      </Title>
      <Alert variant="light" icon={<IconInfoCircle size={18} />}>
        This Data Lab runs in embedded mode with its built-in sign-in provider and demo data. Sign in with one of these
        accounts; the provider&apos;s sign-in page lists them too.
      </Alert>
      <Table withTableBorder striped verticalSpacing="sm" maw={760}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Account</Table.Th>
            <Table.Th>What it shows</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {accounts.map((account) => (
            <Table.Tr key={account.username}>
              <Table.Td>
                <Code>{account.username}</Code>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{account.description}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
