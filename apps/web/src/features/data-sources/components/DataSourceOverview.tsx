import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { readParameters } from '../parameters/definition.ts';
import { AiAssistantSetup } from './AiAssistantSetup.tsx';
import { CallingSnippets } from './CallingSnippets.tsx';
import { kindLabels } from './DataSourceTable.tsx';
import { ParameterTable } from './ParameterTable.tsx';
import { RecentCalls } from './RecentCalls.tsx';
import { TransformationList } from './TransformationList.tsx';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} fz="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

const seconds = (ms: number) => `${ms / 1000} s`;

/** Everything about one asset a caller needs: where it runs, what it takes, what is done to its result. */
export function DataSourceOverview({ asset }: { asset: DataSourceDetail }) {
  const parameters = readParameters(asset.parameters);
  return (
    <Stack gap="lg">
      <Section title="About">
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Fact label="Collection">
            <Anchor component={Link} to={paths.collection(asset.collection.uid)}>
              {asset.collection.name}
            </Anchor>
          </Fact>
          <Fact label="Type">
            <Badge variant="light" color="gray">
              {kindLabels[asset.kind]}
            </Badge>
          </Fact>
          <Fact label="Connection">
            {asset.connection ? `${asset.connection.name} (${asset.connection.kind})` : texts.notSet}
          </Fact>
          <Fact label="Version">{asset.version}</Fact>
          <Fact label="Row cap (interactive calls)">{asset.rowCap.toLocaleString()}</Fact>
          <Fact label="Rows in a download, at most">{asset.maxExportRows.toLocaleString()}</Fact>
          <Fact label="Timeout">{seconds(asset.timeoutMs)}</Fact>
          <Fact label="Cache">{asset.cacheTtlSeconds === 0 ? 'Off' : `${asset.cacheTtlSeconds} s`}</Fact>
          <Fact label="AI agents">{asset.mcpAvailable ? 'Available' : 'Not available'}</Fact>
        </SimpleGrid>
      </Section>
      <Section title="Parameters">
        <ParameterTable parameters={parameters} />
      </Section>
      <Section title="Transformations">
        <TransformationList transformations={asset.transformations} />
      </Section>
      <Section title="Call it from a program">
        <CallingSnippets asset={asset} />
      </Section>
      <Section title="Use from an AI assistant">
        <AiAssistantSetup available={asset.mcpAvailable} />
      </Section>
      <Section title="Recent calls">
        <RecentCalls uid={asset.uid} />
      </Section>
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          {asset.kind === 'sql' ? 'The query runs read-only, with its parameters bound by the database driver.' : ''}
        </Text>
      </Group>
    </Stack>
  );
}
