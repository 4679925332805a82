import {
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import type { WebApiConnection } from '@datalab/contract/api/web-api';
import { webApiMethods } from '@datalab/contract/web-api-request';
import { monoInput } from '../../../components/forms/mono-input.ts';
import { KeyValueEditor } from '../../../components/forms/KeyValueEditor.tsx';
import { methodsWithoutBody, type PagingDraft, type RequestDraft } from '../model/request-draft.ts';

// A Web API asset's request: method and path template under the connection's base URL, query and header templates,
// a JSON body template, where the rows are in the reply and how to page, and the credential to send. `{name}` marks
// where a caller's value goes: the server encodes it so that it can never change the host or climb the path.

const METHOD_OPTIONS = webApiMethods.map((method) => ({ value: method, label: method }));
const PAGING_OPTIONS = [
  { value: 'none', label: 'One request' },
  { value: 'next', label: 'Follow a next link' },
  { value: 'page', label: 'Page numbers' },
];

interface WebRequestEditorProps {
  connection: WebApiConnection | null;
  request: RequestDraft;
  onChange: (request: RequestDraft) => void;
  credentialId: number | null;
  onCredentialChange: (credentialId: number | null) => void;
  /** The server's messages (a 400's errors map), keyed like 'request.path'. */
  errors: Record<string, string[]>;
  /** Why the request cannot be sent yet (a body that is not JSON). */
  problem: string | null;
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={3} fz="h6">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function messagesUnder(errors: Record<string, string[]>, prefix: string): string | undefined {
  const found = Object.entries(errors)
    .filter(([key]) => key === prefix || key.startsWith(`${prefix}.`))
    .flatMap(([, messages]) => messages);
  return found.length > 0 ? found.join(' ') : undefined;
}

function PagingFields({ paging, onChange }: { paging: PagingDraft; onChange: (paging: PagingDraft) => void }) {
  const set = (change: Partial<PagingDraft>) => onChange({ ...paging, ...change });
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="Paging"
        data={PAGING_OPTIONS}
        value={paging.kind}
        onChange={(kind) => set({ kind: kind === 'next' || kind === 'page' ? kind : 'none' })}
      />
      {paging.kind === 'next' ? (
        <TextInput
          label="Where the next page's URL is in the reply"
          description="A dotted path such as links.next; empty: the Link header's rel=next. Paging stops at the row cap."
          styles={monoInput}
          value={paging.nextPath}
          onChange={(e) => set({ nextPath: e.currentTarget.value })}
        />
      ) : null}
      {paging.kind === 'page' ? (
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <TextInput
            label="Page parameter"
            required
            styles={monoInput}
            value={paging.pageParam}
            onChange={(e) => set({ pageParam: e.currentTarget.value })}
          />
          <NumberInput
            label="First page"
            min={0}
            value={paging.start}
            onChange={(v) => set({ start: typeof v === 'number' ? v : 1 })}
          />
          <NumberInput
            label="Page size"
            description="Optional"
            min={1}
            max={100_000}
            value={paging.size ?? ''}
            onChange={(v) => set({ size: typeof v === 'number' ? v : null })}
          />
          <TextInput
            label="Page size parameter"
            description="Optional"
            styles={monoInput}
            value={paging.sizeParam}
            onChange={(e) => set({ sizeParam: e.currentTarget.value })}
          />
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}

export function WebRequestEditor(props: WebRequestEditorProps) {
  const { connection, request, onChange, credentialId, onCredentialChange, errors, problem } = props;
  const set = (change: Partial<RequestDraft>) => onChange({ ...request, ...change });
  const hasNoBody = methodsWithoutBody.includes(request.method);
  const credentials = connection?.credentials ?? [];
  const credentialOptions = [
    { value: 'none', label: 'None' },
    ...credentials.map((c) => ({ value: String(c.id), label: c.name })),
  ];
  return (
    <Stack gap="md">
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <Select
          label="Method"
          data={METHOD_OPTIONS}
          value={request.method}
          allowDeselect={false}
          w={130}
          onChange={(value) => set({ method: webApiMethods.find((m) => m === value) ?? request.method })}
        />
        <TextInput
          label="Path"
          description={
            connection
              ? `After ${connection.baseUrl} — write {name} where a caller's value goes.`
              : "Write {name} where a caller's value goes."
          }
          placeholder="/countries/{region}"
          styles={monoInput}
          style={{ flex: 1 }}
          value={request.path}
          error={messagesUnder(errors, 'request.path')}
          onChange={(e) => set({ path: e.currentTarget.value })}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Part title="Query parameters">
          <KeyValueEditor
            item="query parameter"
            rows={request.query}
            valuePlaceholder="{name} or text"
            error={messagesUnder(errors, 'request.query')}
            onChange={(query) => set({ query })}
          />
        </Part>
        <Part title="Headers">
          <KeyValueEditor
            item="header"
            ignoreCase
            rows={request.headers}
            valuePlaceholder="{name} or text"
            error={messagesUnder(errors, 'request.headers')}
            onChange={(headers) => set({ headers })}
          />
        </Part>
      </SimpleGrid>
      <Textarea
        label="Body (JSON)"
        description={
          hasNoBody
            ? `A ${request.method} request sends no body.`
            : 'A JSON template: "{name}" alone becomes the value itself (a number stays a number).'
        }
        placeholder={hasNoBody ? undefined : '{ "country": "{country}" }'}
        autosize
        minRows={hasNoBody ? 1 : 3}
        maxRows={16}
        styles={monoInput}
        disabled={hasNoBody && request.body === ''}
        value={request.body}
        error={problem ?? messagesUnder(errors, 'request.body')}
        onChange={(e) => set({ body: e.currentTarget.value })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Where the rows are in the reply"
          description="A dotted path such as data.items; empty: the reply itself is the list of rows."
          styles={monoInput}
          value={request.rowsPath}
          error={messagesUnder(errors, 'request.rowsPath')}
          onChange={(e) => set({ rowsPath: e.currentTarget.value })}
        />
        <Select
          label="Credential"
          description="One of the connection's credentials, sent with every request. Its secret never leaves the server."
          data={credentialOptions}
          value={credentialId === null ? 'none' : String(credentialId)}
          allowDeselect={false}
          error={messagesUnder(errors, 'credentialId')}
          onChange={(value) => onCredentialChange(value === null || value === 'none' ? null : Number(value))}
        />
      </SimpleGrid>
      <Part title="Paging">
        <PagingFields paging={request.paging} onChange={(paging) => set({ paging })} />
        {messagesUnder(errors, 'request.paging') ? (
          <Text size="sm" c="red.9">
            {messagesUnder(errors, 'request.paging')}
          </Text>
        ) : null}
      </Part>
    </Stack>
  );
}
