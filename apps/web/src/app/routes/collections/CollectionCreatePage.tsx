import { Navigate, useNavigate } from 'react-router';
import { createCollection as createCollectionBody } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { NameDescriptionForm } from '../../../components/forms/NameDescriptionForm.tsx';
import { FormPage } from '../../../components/page/FormPage.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { useCreateCollection } from '../../../features/collections/api/create-collection.ts';
import { unauthorisedPageUrl } from '../../../lib/error-page-url.ts';
import { notifySuccess } from '../../../lib/notify.ts';

export function CollectionCreatePage() {
  const currentUser = useCurrentUser();
  if (currentUser.isPending) return <PageLoader label="Checking what you may do" />;
  // product §4: a page the caller may not use goes to the error page with 'Unauthorised'.
  if (currentUser.data?.canCreateCollections !== true) return <Navigate to={unauthorisedPageUrl()} replace />;
  return <CreateCollectionForm />;
}

function CreateCollectionForm() {
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
