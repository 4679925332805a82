import type { CurrentUser } from '@datalab/contract/api/account';
import { paths } from '@datalab/contract/paths';

export interface HomeLink {
  to: string;
  label: string;
}

export interface HomeCard {
  key: 'collections' | 'call' | 'programs' | 'downloads' | 'digital-lab' | 'administration';
  title: string;
  text: string;
  links: HomeLink[];
}

/**
 * What the signed-in user can do now, card by card, each with links that open for them: creating a collection
 * only for those allowed to, the Digital Lab for its partners and administrators, administration for holders of
 * canManageUsers. Roles per collection are not known here; the texts say where they count.
 */
export function homeCards(user: CurrentUser): HomeCard[] {
  const cards: HomeCard[] = [
    {
      key: 'collections',
      title: 'Explore collections',
      text: user.canCreateCollections
        ? 'A collection groups data assets with the connections they run on and the people allowed to use them. Open one to see its assets and your role in it, or create one for your own data.'
        : 'A collection groups data assets with the connections they run on and the people allowed to use them. Open one to see its assets and your role in it. Owners and editors change a collection from its Edit tab.',
      links: [
        { to: paths.collections, label: 'Go to collections' },
        ...(user.canCreateCollections ? [{ to: paths.collectionCreate, label: 'New collection' }] : []),
      ],
    },
    {
      key: 'call',
      title: 'Call a data asset',
      text: 'Pick an asset, fill in its parameters and run it. The result appears in a grid you can sort and copy; large results download as CSV, JSON, Excel or Parquet.',
      links: [{ to: paths.dataSources, label: 'All data assets' }],
    },
    {
      key: 'programs',
      title: 'Connect your programs',
      text: 'Create a personal access token, narrow it to the collections and roles it needs, and call assets from curl, Python, R or Power BI. Revoke it when you are done.',
      links: [
        { to: paths.tokens, label: 'Your tokens' },
        { to: paths.tokenCreatePat, label: 'New personal access token' },
      ],
    },
    {
      key: 'downloads',
      title: 'Pick up downloads',
      text: 'Large results are prepared as files in the background. They wait for you under My downloads until they expire.',
      links: [{ to: paths.downloads, label: 'My downloads' }],
    },
  ];
  if (user.canUseDigitalLab)
    cards.push({
      key: 'digital-lab',
      title: 'Digital Lab',
      text: user.permissions.canManageUsers
        ? 'The area external partners use: the assets shared with them and their own tokens. Open it to see what they see.'
        : 'Your area as a partner: the data assets shared with you, and tokens for your programs.',
      links: [{ to: paths.digitalLabTokens, label: 'Open the Digital Lab' }],
    });
  if (user.permissions.canManageUsers)
    cards.push({
      key: 'administration',
      title: 'Administer Data Lab',
      text: 'Manage users and their groups, look into the cache and the application log, and see how the data is used.',
      links: [
        { to: paths.userManagement, label: 'Users' },
        { to: paths.userGroups, label: 'User groups' },
        { to: paths.cacheManagement, label: 'Cache' },
        { to: paths.logManagement, label: 'Application log' },
        { to: paths.usageOverview, label: 'Usage' },
      ],
    });
  return cards;
}
