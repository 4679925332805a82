import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { useUnsavedChangesGuard } from '../../../components/forms/use-unsaved-changes-guard.tsx';
import { FormPage } from '../../../components/page/FormPage.tsx';
import { NotFoundState } from '../../../components/page/NotFoundState.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useConnections } from '../../../features/connections/api/list-connections.ts';
import { ConnectionForm } from '../../../features/connections/components/ConnectionForm.tsx';
import { CollectionGate } from './collection-tabs.tsx';

function EditConnection({ collectionUid, name }: { collectionUid: string; name: string }) {
  const navigate = useNavigate();
  const connections = useConnections(collectionUid);
  const [isDirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(isDirty);
  const back = paths.collection(collectionUid, 'connections');
  if (connections.isPending) return <PageLoader label="Loading the connection" />;
  if (connections.isError) return <InlineError error={connections.error} />;
  const connection = connections.data.find((item) => item.name === name);
  if (!connection) return <NotFoundState what="This connection" back={{ to: back, label: 'All connections' }} />;
  const leave = () => {
    guard.allowLeaving(true);
    void navigate(back);
  };
  return (
    <FormPage
      title={`Connection ${connection.name}`}
      description="Where this collection's data assets run. Test the settings before saving; the password is kept unless you type a new one."
    >
      <ConnectionForm connection={connection} onSaved={leave} onCancel={leave} onDirtyChange={setDirty} />
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
