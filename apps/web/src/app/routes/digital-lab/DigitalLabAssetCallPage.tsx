import { useState } from 'react';
import { Button, Card, Container, Stack, Text, Title } from '@mantine/core';
import { IconApi, IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { NotFoundState } from '../../../components/page/NotFoundState.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useDataSource } from '../../../features/data-sources/api/get-data-source.ts';
import { AiAssistantSetup } from '../../../features/data-sources/components/AiAssistantSetup.tsx';
import { CallingSnippets } from '../../../features/data-sources/components/CallingSnippets.tsx';
import { CallWorkbench } from '../../../features/data-sources/components/CallWorkbench.tsx';
import { readParameters } from '../../../features/data-sources/parameters/definition.ts';
import { valuesToCall } from '../../../features/data-sources/parameters/form-values.ts';
import { useUrlValues } from '../../../features/data-sources/parameters/use-url-values.ts';
import { isNotFound } from '../../../lib/api-error.ts';
import { callDownload } from '../downloads/call-download.tsx';

/** The snippets follow the form: its values live in the URL, which both read. */
function Snippets({ asset }: { asset: DataSourceDetail }) {
  const [parameters] = useState(() => readParameters(asset.parameters));
  const { values } = useUrlValues(parameters);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Call it from a program">
      <Title order={2} fz="h4" mb="xs">
        Call it from a program
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        The same call with the values above, for your own tools. Use one of your tokens in place of the placeholder.
      </Text>
      <CallingSnippets asset={asset} values={valuesToCall(parameters, values)} />
    </Card>
  );
}

/** /digital-lab/data-asset/{uid}/call: call an asset shared with the partner, and take the call to a program. */
export function DigitalLabAssetCallPage() {
  const { uid = '' } = useParams();
  const asset = useDataSource(uid);
  const back = { to: paths.digitalLabTokens, label: 'Your tokens' };
  if (asset.isPending) return <PageLoader label="Loading the data asset" />;
  if (asset.isError) {
    if (isNotFound(asset.error)) return <NotFoundState what="This data asset" back={back} />;
    return (
      <Container size="xl" py="xl">
        <InlineError error={asset.error} />
      </Container>
    );
  }
  const data = asset.data;
  return (
    <PageFrame
      title={`Call ${data.name}`}
      description={data.description || `A data asset of ${data.collection.name}, shared with you.`}
      actions={
        <>
          <Button component={Link} to={back.to} variant="default" leftSection={<IconArrowLeft size={16} />}>
            {back.label}
          </Button>
          <Button
            component={Link}
            to={`${paths.digitalLabCallingApi}?asset=${encodeURIComponent(data.uid)}`}
            variant="default"
            leftSection={<IconApi size={16} />}
          >
            Calling API
          </Button>
        </>
      }
    >
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          From {data.collection.name}
        </Text>
        <CallWorkbench key={data.uid} asset={data} download={callDownload(data.uid)} />
        <Snippets asset={data} />
        <Card withBorder radius="md" padding="lg" component="section" aria-label="Use from an AI assistant">
          <Title order={2} fz="h4" mb="md">
            Use from an AI assistant
          </Title>
          <AiAssistantSetup available={data.mcpAvailable} />
        </Card>
      </Stack>
    </PageFrame>
  );
}
