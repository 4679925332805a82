import { paths } from '@datalab/contract/paths';
import { CreatePatScreen } from './CreatePatScreen.tsx';

/** /tokens/createPAT */
export function CreatePatPage() {
  return (
    <CreatePatScreen
      back={paths.tokens}
      description="A personal access token lets a program call data assets for you, limited to the collections and roles you choose, until it expires or is revoked. Its secret is shown once."
    />
  );
}
