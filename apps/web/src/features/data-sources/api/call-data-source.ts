import { useMutation } from '@tanstack/react-query';
import { callDataAsset, type CallOptions } from '../../../lib/data-api.ts';

/** Runs an asset through the calling layer for its JSON result (with a Web API asset's exchanges when asked). */
export function useCallDataSource(uid: string, options: CallOptions = {}) {
  return useMutation({
    mutationFn: (values: Record<string, unknown>) => callDataAsset(uid, values, undefined, options),
  });
}
