import { Textarea } from '@mantine/core';

interface DescriptionFieldProps {
  value: string;
  onChange: (description: string) => void;
}

/** A connection's free-text description, growing with what is typed. */
export function DescriptionField({ value, onChange }: DescriptionFieldProps) {
  return (
    <Textarea
      label="Description"
      value={value}
      autosize
      minRows={2}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
