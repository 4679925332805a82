import { SimpleGrid, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';

interface NameRowProps {
  value: string;
  error: string | undefined;
  onChange: (name: string) => void;
  /** The field that stands beside the name: the kind, or a Web API connection's base URL. */
  children: ReactNode;
}

/** A form's first row: the required name, and the field beside it (one column on narrow screens). */
export function NameRow({ value, error, onChange, children }: NameRowProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label="Name" required value={value} error={error} onChange={(e) => onChange(e.currentTarget.value)} />
      {children}
    </SimpleGrid>
  );
}
