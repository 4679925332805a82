import { Code, Table, Text } from '@mantine/core';
import { limits } from '@datalab/contract/limits';
import { LOGIN_REDIRECT_KEY } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { usePortalConfig } from '../../../config/portal-config-context.tsx';
import { DEVELOPER_MODE_KEY } from '../../../lib/developer-mode.ts';
import { PolicyArticle, PolicySection } from './PolicyArticle.tsx';

interface StorageEntry {
  key: string;
  purpose: string;
  kept: string;
}

function StorageTable({ entries }: { entries: StorageEntry[] }) {
  return (
    <Table withTableBorder verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Key</Table.Th>
          <Table.Th>Purpose</Table.Th>
          <Table.Th>How long</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry) => (
          <Table.Tr key={entry.key}>
            <Table.Td>
              <Code>{entry.key}</Code>
            </Table.Td>
            <Table.Td>{entry.purpose}</Table.Td>
            <Table.Td>{entry.kept}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function CookiePolicyPage() {
  const config = usePortalConfig();
  const session: StorageEntry[] = [
    {
      key: `oidc.user:${config.authority}:${config.clientId}`,
      purpose: 'Your sign-in session: the tokens that prove who you are to Data Lab.',
      kept: 'Until you sign out or close the tab.',
    },
    {
      key: 'oidc.<random id>',
      purpose: 'A sign-in or sign-out in progress (its state and PKCE verifier).',
      kept: 'Until it completes; abandoned ones are removed after 15 minutes.',
    },
    { key: LOGIN_REDIRECT_KEY, purpose: 'The page to return to after signing in.', kept: 'Until sign-in completes.' },
    {
      key: 'react-router-scroll-positions',
      purpose: 'Scroll positions, so Back returns you to where you were.',
      kept: 'Until you close the tab.',
    },
  ];
  const local: StorageEntry[] = [
    {
      key: limits.searchHistoryKey,
      purpose: `Your last ${limits.searchHistoryLimit} searches, offered again in search boxes.`,
      kept: 'Until you clear your browser data.',
    },
    { key: DEVELOPER_MODE_KEY, purpose: 'Whether developer mode is switched on.', kept: 'Until you switch it off.' },
  ];
  return (
    <PolicyArticle
      page="cookie-policy"
      summary={`${PRODUCT_NAME} sets no cookies and uses no tracking or advertising technology. It keeps a few entries in your browser's session and local storage, all listed here, all needed for the portal to work.`}
    >
      <PolicySection title="Session storage">
        <Text>Session storage belongs to one browser tab and is emptied when the tab closes.</Text>
        <StorageTable entries={session} />
      </PolicySection>
      <PolicySection title="Local storage">
        <Text>Local storage stays on this device until removed; it never leaves your browser.</Text>
        <StorageTable entries={local} />
      </PolicySection>
      <PolicySection title="The sign-in service">
        {`While you sign in, you are on the sign-in service's own pages. It may set strictly necessary cookies of its own to remember that you signed in there; they are governed by that service and removed when you sign out of ${PRODUCT_NAME}.`}
      </PolicySection>
      <PolicySection title="Removing them">
        {`Signing out clears the session entries. You can remove everything at any time from your browser's site data settings; you will simply be asked to sign in again and your recent searches will be gone.`}
      </PolicySection>
    </PolicyArticle>
  );
}
