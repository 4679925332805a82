import { useMediaQuery } from '@mantine/hooks';
import { limits } from '@datalab/contract/limits';

/** Below 768 px (product §9) the portal counts as mobile. */
export const MOBILE_MEDIA_QUERY = `(max-width: ${limits.mobileWidthPx - 0.02}px)`;

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_MEDIA_QUERY, undefined, { getInitialValueInEffect: false });
}
