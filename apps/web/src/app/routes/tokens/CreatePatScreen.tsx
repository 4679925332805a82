import { useNavigate } from 'react-router';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { FormPage } from '../../../components/page/FormPage.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { usePortalConfig } from '../../../config/portal-config-context.tsx';
import { CreatePatForm } from '../../../features/tokens/components/CreatePatForm.tsx';
import { useGrantableCollections } from './use-grantable-collections.ts';

/** Create a personal access token (the portal's and the Digital Lab's screen); `back` is where it returns to. */
export function CreatePatScreen({ back, description }: { back: string; description: string }) {
  const { tokenExpiry } = usePortalConfig();
  const grantable = useGrantableCollections();
  const navigate = useNavigate();
  let content;
  if (grantable.isPending) content = <PageLoader label="Loading your collections" />;
  else if (grantable.error) content = <InlineError error={grantable.error} />;
  else {
    content = (
      <CreatePatForm
        settings={tokenExpiry}
        collections={grantable.collections}
        onCancel={() => void navigate(back)}
        onDone={() => void navigate(back)}
      />
    );
  }
  return (
    <FormPage title="Create personal access token" description={description}>
      {content}
    </FormPage>
  );
}
