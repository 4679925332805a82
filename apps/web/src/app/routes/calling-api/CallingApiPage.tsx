import { useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { CallingApiDocument } from '../../../features/data-sources/components/CallingApiDocument.tsx';

/** /calling-api (and /digital-lab/calling-api): the calling layer's OpenAPI document for the signed-in user. */
export function CallingApiPage() {
  const [search] = useSearchParams();
  return (
    <PageFrame
      title="Calling API"
      description="The OpenAPI document of the calling layer: every data asset you may call, as programs call it."
      size="xl"
    >
      <CallingApiDocument assetUid={search.get('asset') ?? undefined} />
    </PageFrame>
  );
}
