import { Paper } from '@mantine/core';
import { useNavigate } from 'react-router';
import { createCollection as createCollectionBody } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { NameDescriptionForm } from '../../../components/forms/NameDescriptionForm.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { useCreateCollection } from '../../../features/collections/api/create-collection.ts';
import { notifySuccess } from '../../../lib/notify.ts';

export function CollectionCreatePage() {
  const navigate = useNavigate();
  const creation = useCreateCollection();
  return (
    <PageFrame
      title="Create collection"
      description="Give the collection a name and a description. You become its owner, and can then add connections and data assets and decide who may use them."
      size="md"
    >
      <Paper withBorder radius="md" p="lg">
        <NameDescriptionForm
          schema={createCollectionBody}
          submitLabel="Create collection"
          namePlaceholder="e.g. Sales reporting"
          descriptionPlaceholder="What the data is, where it comes from, who it is for"
          onSubmit={async (values) => {
            const created = await creation.mutateAsync(values);
            notifySuccess(`Collection ${created.name} created`);
            await navigate(paths.collection(created.uid));
          }}
          onCancel={() => void navigate(paths.collections)}
        />
      </Paper>
    </PageFrame>
  );
}
