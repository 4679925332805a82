import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { SqlEditorProps } from './SqlEditor.tsx';

// CodeMirror loads with the editor screen's SQL field, never with the home page.
const SqlEditor = lazy(() => import('./SqlEditor.tsx'));

export function LazySqlEditor(props: SqlEditorProps) {
  return (
    <Suspense fallback={<Skeleton height={180} aria-label="Loading the SQL editor" />}>
      <SqlEditor {...props} />
    </Suspense>
  );
}
