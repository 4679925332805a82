// Who sees usage, as the Reporting calls decide it (contract api/reporting.ts): a collection's Editors and Owners
// for it and its assets, administrators for everything. Readers are not shown the tab or panel at all: a refused
// call would send them to the error page (product §8's 403 handling).

export interface UsageViewer {
  /** The caller may edit the collection's assets (Editor or Owner). */
  canEditAssets: boolean;
  /** The caller holds canManageUsers. */
  isAdministrator: boolean;
}

export function canSeeUsage({ canEditAssets, isAdministrator }: UsageViewer): boolean {
  return canEditAssets || isAdministrator;
}
