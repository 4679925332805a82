import { useState } from 'react';
import type { ErrorsMap } from '@datalab/contract/errors';
import { useLiveFieldErrors } from '../../../components/forms/use-live-field-errors.ts';
import { ApiError } from '../../../lib/api-error.ts';

// The editable draft of a connection's settings (SQL or Web API), with the server's messages for its fields: those of
// a refused test and of a refused save (the save's win where both name a field), as the form shows them under each
// field, each until its field changes. Every change tells the page that the form holds unsaved changes.

const errorsOf = (error: unknown): ErrorsMap => (error instanceof ApiError ? error.errors : {});

export function useSettingsDraft<D extends object>(
  initial: D,
  failures: { test: unknown; save: unknown },
  onDirtyChange?: (isDirty: boolean) => void,
) {
  const [draft, setDraft] = useState<D>(initial);
  const errors = useLiveFieldErrors({ ...errorsOf(failures.test), ...errorsOf(failures.save) }, draft);
  /** Replaces the draft by what `next` makes of it. */
  const change = (next: (current: D) => D) => {
    setDraft(next);
    onDirtyChange?.(true);
  };
  return {
    draft,
    errors,
    errorOf: (field: string) => errors[field]?.join(' '),
    change,
    set: <K extends keyof D>(key: K, value: D[K]) => change((current) => ({ ...current, [key]: value })),
  };
}
