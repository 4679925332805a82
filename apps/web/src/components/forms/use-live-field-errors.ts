import { useState } from 'react';
import type { ErrorsMap } from '@datalab/contract/errors';
import { liveErrors, valuesWhenRefused } from '../../lib/field-errors.ts';

/**
 * The server's messages for a form's fields, each kept only while its field still holds the value refused: the
 * message under a field leaves as the user changes it (and comes back if they type the refused value again).
 * `values` are the form's values by field name; a new refusal (other messages) takes a fresh snapshot of them.
 */
export function useLiveFieldErrors(errors: ErrorsMap, values: object): ErrorsMap {
  const key = JSON.stringify(errors);
  const [seen, setSeen] = useState<{ key: string; refused: Record<string, string> }>({ key: '{}', refused: {} });
  let refused = seen.refused;
  if (seen.key !== key) {
    // Storing what the values were when these messages arrived: React re-renders at once with it.
    refused = valuesWhenRefused(errors, values);
    setSeen({ key, refused });
  }
  return liveErrors(errors, refused, values);
}
