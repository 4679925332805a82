import { paths } from '@datalab/contract/paths';
import { useDeveloperMode } from '../../../lib/developer-mode.ts';

export interface NavItem {
  label: string;
  to: string;
}

/** SPEC §2: Collections and Tokens always; Data Assets and Playground in developer mode only. */
export function useMainNavItems(): NavItem[] {
  const isDeveloperMode = useDeveloperMode();
  return [
    { label: 'Collections', to: paths.collections },
    ...(isDeveloperMode ? [{ label: 'Data Assets', to: paths.dataSources }] : []),
    { label: 'Tokens', to: paths.tokens },
    ...(isDeveloperMode ? [{ label: 'Playground', to: paths.playground }] : []),
  ];
}
