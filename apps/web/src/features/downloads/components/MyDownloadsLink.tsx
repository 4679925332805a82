import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';

export function MyDownloadsLink() {
  return (
    <Anchor component={Link} to={paths.downloads} fw={600}>
      My downloads
    </Anchor>
  );
}
