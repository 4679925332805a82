import { createContext, useContext, type ReactNode } from 'react';
import type { PortalConfig } from '@datalab/contract/api/portal-config';

const PortalConfigContext = createContext<PortalConfig | null>(null);

export function PortalConfigProvider({ config, children }: { config: PortalConfig; children: ReactNode }) {
  return <PortalConfigContext value={config}>{children}</PortalConfigContext>;
}

export function usePortalConfig(): PortalConfig {
  const config = useContext(PortalConfigContext);
  if (!config) throw new Error('usePortalConfig must be used inside PortalConfigProvider');
  return config;
}
