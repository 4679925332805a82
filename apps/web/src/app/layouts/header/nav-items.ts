import { paths } from '@datalab/contract/paths';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { useDeveloperMode } from '../../../lib/developer-mode.ts';

export interface NavItem {
  label: string;
  to: string;
}

/**
 * product §2: Collections and Tokens always; Data Assets and Playground in developer mode only. Also
 * My downloads, always: the call screen sends people there when a download outlasts its polling. The Digital Lab
 * is offered to those who may use it (its partners and administrators, as GetCurrentUser says).
 */
export function useMainNavItems(): NavItem[] {
  const isDeveloperMode = useDeveloperMode();
  const { data: currentUser } = useCurrentUser();
  return [
    { label: 'Collections', to: paths.collections },
    ...(isDeveloperMode ? [{ label: 'Data Assets', to: paths.dataSources }] : []),
    { label: 'Tokens', to: paths.tokens },
    { label: 'My downloads', to: paths.downloads },
    ...(isDeveloperMode ? [{ label: 'Playground', to: paths.playground }] : []),
    ...(currentUser?.canUseDigitalLab ? [{ label: 'Digital Lab', to: paths.digitalLabTokens }] : []),
  ];
}
