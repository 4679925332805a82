import { useNavigate } from 'react-router';
import { createCollection as createCollectionBody } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { NameDescriptionForm } from '../../../components/forms/NameDescriptionForm.tsx';
import { FormPage } from '../../../components/page/FormPage.tsx';
import { useCreateCollection } from '../../../features/collections/api/create-collection.ts';
import { notifySuccess } from '../../../lib/notify.ts';

export function CollectionCreatePage() {
  const navigate = useNavigate();
  const creation = useCreateCollection();
  return (
    <FormPage
      title="Create collection"
      description="Give the collection a name and a description. You become its owner, and can then add connections and data assets and decide who may use them."
    >
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
    </FormPage>
  );
}
