import { useEffect, useMemo } from 'react';
import { Anchor, Badge, Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { callingOpenApiUrl, fetchCallingOpenApi } from '../../../lib/data-api.ts';
import { dataSourceKeys } from '../keys.ts';
import { CopyableCode } from './CopyableCode.tsx';

interface Operation {
  method: string;
  path: string;
  summary: string;
  operationId: string;
  parameters: string[];
}

interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, { summary?: string; operationId?: string; parameters?: { name?: string }[] }>>;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? '',
        operationId: operation.operationId ?? '',
        parameters: (operation.parameters ?? []).map((p) => p.name ?? '').filter(Boolean),
      })),
  );
}

/** Whether an operation is the asset's: its path ends with the asset's uid. */
const isOfAsset = (operation: Operation, assetUid: string | undefined) =>
  assetUid !== undefined && decodeURIComponent(operation.path).endsWith(`/${assetUid}`);

export interface CallingApiDocumentProps {
  /** An asset to point out (the page was opened from its screen). */
  assetUid?: string | undefined;
}

/**
 * The calling layer's OpenAPI document of exactly the assets the signed-in user may call: where it is, a download
 * of it (for code generators and API tools), and what it holds, one operation per asset call.
 */
export function CallingApiDocument({ assetUid }: CallingApiDocumentProps) {
  const document = useQuery({
    queryKey: [...dataSourceKeys.all, 'calling-openapi'],
    queryFn: async ({ signal }) => {
      const blob = await fetchCallingOpenApi(signal);
      const text = await blob.text();
      return { blob, text, parsed: JSON.parse(text) as OpenApiDocument };
    },
  });
  const href = useMemo(() => (document.data ? URL.createObjectURL(document.data.blob) : undefined), [document.data]);
  useEffect(() => () => (href ? URL.revokeObjectURL(href) : undefined), [href]);
  useEffect(() => {
    if (assetUid && document.data) window.document.getElementById(`operation-${assetUid}`)?.scrollIntoView();
  }, [assetUid, document.data]);

  if (document.isPending) return <PageLoader label="Loading the OpenAPI document" />;
  if (document.isError) return <InlineError error={document.error} />;
  const { parsed } = document.data;
  const operations = operationsOf(parsed);

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-label="The document">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" wrap="wrap">
            <div>
              <Title order={2} fz="h4">
                {parsed.info?.title ?? 'Calling layer'}
              </Title>
              <Text size="sm" c="dimmed">
                OpenAPI {parsed.info?.version ? `· version ${parsed.info.version} · ` : '· '}
                {operations.length} operation{operations.length === 1 ? '' : 's'}
              </Text>
            </div>
            <Button
              component="a"
              href={href}
              download="data-lab-calling-api.json"
              leftSection={<IconDownload size={16} />}
            >
              Download openapi.json
            </Button>
          </Group>
          <Text size="sm">
            It describes the data assets you may call now, with their parameters and formats. Programs fetch it with a
            token in the Authorization header; the document they get lists what that token may call.
          </Text>
          <CopyableCode label="Address" value={callingOpenApiUrl()} />
        </Stack>
      </Card>
      <Card withBorder radius="md" padding={0} component="section" aria-label="Operations">
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Call</Table.Th>
                <Table.Th>What it does</Table.Th>
                <Table.Th>Parameters</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {operations.map((operation, index) => {
                const mine = isOfAsset(operation, assetUid);
                const isFirstOfAsset = mine && index === operations.findIndex((o) => isOfAsset(o, assetUid));
                return (
                  <Table.Tr
                    key={`${operation.method} ${operation.path}`}
                    id={isFirstOfAsset ? `operation-${assetUid}` : undefined}
                    bg={mine ? 'var(--mantine-color-blue-light)' : undefined}
                    aria-current={mine ? 'true' : undefined}
                  >
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Badge
                          variant="light"
                          color={operation.method === 'GET' ? 'blue' : 'teal'}
                          style={{ flexShrink: 0, overflow: 'visible' }}
                        >
                          {operation.method}
                        </Badge>
                        <Code style={{ wordBreak: 'break-all' }}>{operation.path}</Code>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{operation.summary || operation.operationId}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={operation.parameters.length ? undefined : 'dimmed'}>
                        {operation.parameters.length ? operation.parameters.join(', ') : 'None'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <Text size="sm" c="dimmed">
        Open the downloaded file in an API tool (Postman, Insomnia, Swagger Editor) or a client generator.{' '}
        <Anchor href="https://spec.openapis.org/oas/v3.1.0" target="_blank" rel="noreferrer">
          About OpenAPI 3.1
        </Anchor>
      </Text>
    </Stack>
  );
}
