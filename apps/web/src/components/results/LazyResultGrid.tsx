import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { ResultGridProps } from './ResultGrid.tsx';

// The grid (table model + virtualiser) loads with the first result, not with the page that holds it.
const ResultGrid = lazy(() => import('./ResultGrid.tsx').then((module) => ({ default: module.ResultGrid })));

export function LazyResultGrid(props: ResultGridProps) {
  return (
    <Suspense fallback={<Skeleton height={props.height ?? 480} aria-label="Loading the result grid" />}>
      <ResultGrid {...props} />
    </Suspense>
  );
}
