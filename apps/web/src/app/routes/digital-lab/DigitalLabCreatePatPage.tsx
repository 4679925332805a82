import { paths } from '@datalab/contract/paths';
import { CreatePatScreen } from '../tokens/CreatePatScreen.tsx';

/** /digital-lab/tokens/createPAT */
export function DigitalLabCreatePatPage() {
  return (
    <CreatePatScreen
      back={paths.digitalLabTokens}
      description="Create a token for your programs, limited to the data shared with you. Its secret is shown once."
    />
  );
}
