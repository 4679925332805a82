import { Select } from '@mantine/core';

interface KindSelectProps<Kind extends string> {
  kinds: readonly Kind[];
  labels: Record<Kind, string>;
  value: Kind;
  onChange: (kind: Kind) => void;
}

/** The kind of what the form edits (a database server, a credential): always one of `kinds`, never none. */
export function KindSelect<Kind extends string>({ kinds, labels, value, onChange }: KindSelectProps<Kind>) {
  return (
    <Select
      label="Kind"
      data={kinds.map((kind) => ({ value: kind, label: labels[kind] }))}
      value={value}
      allowDeselect={false}
      onChange={(picked) => onChange(kinds.find((kind) => kind === picked) ?? value)}
    />
  );
}
