import { Card, Group, Stack, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { useUnsavedChangesGuard } from '../../../components/forms/use-unsaved-changes-guard.tsx';
import { FormPage } from '../../../components/page/FormPage.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { NotFoundState } from '../../../components/page/NotFoundState.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { useAllConnections } from '../../../features/connections/api/list-all-connections.ts';
import { ConnectionForm } from '../../../features/connections/components/ConnectionForm.tsx';
import { WebApiConnectionForm } from '../../../features/connections/components/WebApiConnectionForm.tsx';
import { DeleteConnectionButton } from '../../../features/connections/components/DeleteConnectionButton.tsx';
import { WebApiCredentials } from '../../../features/connections/components/WebApiCredentials.tsx';
import { CollectionGate } from './collection-tabs.tsx';

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

function EditConnection({ collectionUid, name }: { collectionUid: string; name: string }) {
  const navigate = useNavigate();
  const connections = useAllConnections(collectionUid);
  // Only an administrator may allow a database account that may do more than read.
  const isAdministrator = useCurrentUser().data?.permissions.canManageUsers === true;
  const [isDirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(isDirty);
  const back = paths.collection(collectionUid, 'connections');
  if (connections.isPending) return <PageLoader label="Loading the connection" />;
  if (connections.error) return <InlineError error={connections.error} />;
  const leave = () => {
    guard.allowLeaving(true);
    void navigate(back);
  };
  const sql = connections.sql.find((item) => item.name === name);
  const webApi = connections.webApi.find((item) => item.name === name);
  if (webApi) {
    return (
      <PageFrame
        title={`Connection ${webApi.name}`}
        description="A web API this collection's data assets call. Test the settings before saving; secrets are kept unless you type new ones."
        size="lg"
      >
        <Stack gap="xl">
          <Section title="Settings">
            <WebApiConnectionForm connection={webApi} onSaved={leave} onCancel={leave} onDirtyChange={setDirty} />
          </Section>
          <Section title="Credentials">
            <WebApiCredentials connection={webApi} />
          </Section>
          <Group justify="flex-end">
            <DeleteConnectionButton connection={webApi} kind="webapi" onDeleted={leave} />
          </Group>
        </Stack>
        {guard.prompt}
      </PageFrame>
    );
  }
  if (!sql) return <NotFoundState what="This connection" back={{ to: back, label: 'All connections' }} />;
  return (
    <FormPage
      title={`Connection ${sql.name}`}
      description="Where this collection's data assets run. Test the settings before saving; the password is kept unless you type a new one."
    >
      <ConnectionForm
        connection={sql}
        isAdministrator={isAdministrator}
        onSaved={leave}
        onCancel={leave}
        onDirtyChange={setDirty}
      />
      <Group justify="flex-end" mt="xl">
        <DeleteConnectionButton connection={sql} kind="sql" onDeleted={leave} />
      </Group>
      {guard.prompt}
    </FormPage>
  );
}

/** /collection/{uid}/edit/connection/{connectionName}: a connection's settings, its test, and saving them. */
export function CollectionEditConnectionPage() {
  const { uid = '', connectionName = '' } = useParams();
  return (
    <CollectionGate uid={uid}>
      {(collection) => <EditConnection collectionUid={collection.uid} name={connectionName} />}
    </CollectionGate>
  );
}
