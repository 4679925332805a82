import { Button } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { NotFoundFrame } from '../../../components/page/NotFoundState.tsx';

export function NotFoundPage() {
  const location = useLocation();
  return (
    <NotFoundFrame
      action={
        <Button component={Link} to={paths.home} leftSection={<IconHome size={18} />}>
          Home
        </Button>
      }
    >
      Nothing in {PRODUCT_NAME} lives at <code>{location.pathname}</code>. Check the address, or start again from the
      home page.
    </NotFoundFrame>
  );
}
