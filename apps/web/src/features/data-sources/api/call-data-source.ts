import { useCallback, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { callDataAsset, type CallOptions } from '../../../lib/data-api.ts';

/**
 * Runs an asset through the calling layer for its JSON result (with a Web API asset's exchanges when asked).
 * `cancel` aborts the call in flight: the browser drops the request, and the server, seeing its client gone, stops
 * the run (and the database query with it).
 */
export function useCallDataSource(uid: string, options: CallOptions = {}) {
  const controller = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: (values: Record<string, unknown>) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      return callDataAsset(uid, values, current.signal, options);
    },
  });
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { ...mutation, cancel };
}
