import { Anchor, Code, DataList, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { requestRecordsPath } from '../model/log-filters.ts';
import { AuditDiffTable } from './AuditDiffTable.tsx';

// What a record's writer attached, readable: an audit's action, target and values before and after; an error's
// stack; anything else as fields. A request id anywhere here links to that request's records.

const STACK_KEYS = ['stack', 'componentStack'] as const;
const AUDIT_KEYS = ['actor', 'action', 'target', 'before', 'after'];
const REQUEST_ID_KEY = /^request_?id$/i;

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function FieldValue({ name, value }: { name: string; value: unknown }) {
  if (typeof value === 'string' && REQUEST_ID_KEY.test(name)) {
    return (
      <Anchor component={Link} to={requestRecordsPath(value)} size="sm" ff="monospace">
        {value}
      </Anchor>
    );
  }
  if (typeof value === 'object' && value !== null) {
    return (
      <Code block tabIndex={0} mah={240}>
        {asText(value)}
      </Code>
    );
  }
  return (
    <Text size="sm" style={{ wordBreak: 'break-word' }}>
      {String(value)}
    </Text>
  );
}

function Fields({ entries }: { entries: [string, unknown][] }) {
  if (entries.length === 0) return null;
  return (
    <DataList labelWidth={150} gap="sm">
      {entries.map(([name, value]) => (
        <DataList.Item key={name}>
          <DataList.ItemLabel>{name}</DataList.ItemLabel>
          <DataList.ItemValue>
            <FieldValue name={name} value={value} />
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}

function describeTarget(target: unknown): string {
  if (typeof target !== 'object' || target === null) return asText(target);
  const { type, id, name } = target as { type?: unknown; id?: unknown; name?: unknown };
  return [type, name ?? id].filter((part) => part !== undefined).join(' ');
}

function describeActor(actor: unknown): string {
  if (typeof actor !== 'object' || actor === null) return asText(actor);
  const { name, username, id } = actor as { name?: unknown; username?: unknown; id?: unknown };
  return [name, username ? `(${String(username)})` : undefined, id !== undefined ? `#${String(id)}` : undefined]
    .filter(Boolean)
    .join(' ');
}

export function LogDetails({ category, details }: { category: string; details: Record<string, unknown> | null }) {
  if (details === null) return null;
  const isAudit = category === 'audit' && ('before' in details || 'after' in details);
  const stacks = STACK_KEYS.filter((key) => typeof details[key] === 'string' && details[key] !== '');
  const rest = Object.entries(details).filter(
    ([key]) => !(STACK_KEYS as readonly string[]).includes(key) && !(isAudit && AUDIT_KEYS.includes(key)),
  );
  return (
    <Stack gap="lg">
      {isAudit ? (
        <Stack gap="xs">
          <Title order={3} fz="h5">
            Change
          </Title>
          <Fields
            entries={[
              ['Action', details.action],
              ['Target', describeTarget(details.target)],
              ['By', describeActor(details.actor)],
            ]}
          />
          <AuditDiffTable before={details.before ?? null} after={details.after ?? null} />
        </Stack>
      ) : null}
      {stacks.map((key) => (
        <Stack gap="xs" key={key}>
          <Title order={3} fz="h5">
            {key === 'stack' ? 'Stack' : 'Component stack'}
          </Title>
          <Code block tabIndex={0} mah={320} aria-label={key === 'stack' ? 'Stack' : 'Component stack'}>
            {String(details[key])}
          </Code>
        </Stack>
      ))}
      {rest.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} fz="h5">
            {isAudit || stacks.length > 0 ? 'Other details' : 'Details'}
          </Title>
          <Fields entries={rest} />
        </Stack>
      ) : null}
    </Stack>
  );
}
