import { Center, Loader } from '@mantine/core';

export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py={96} role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}
