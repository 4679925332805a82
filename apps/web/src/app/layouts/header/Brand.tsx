import { Box } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import classes from './Header.module.css';

function Logo() {
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#1c7ed6" />
      <path
        d="M9 21.5V10.5h4.2c3.6 0 5.8 2.1 5.8 5.5s-2.2 5.5-5.8 5.5zm2.6-2.3h1.5c2.1 0 3.2-1.2 3.2-3.2s-1.1-3.2-3.2-3.2h-1.5zM20.5 21.5V10.5h2.6v8.7H27v2.3z"
        fill="#fff"
      />
    </svg>
  );
}

/** The product name, linking home. */
export function Brand({ to = paths.home }: { to?: string }) {
  return (
    <Link to={to} className={classes.brand} aria-label={PRODUCT_NAME}>
      <Logo />
      {/* On phones the header keeps only the logo, so the developer-mode switch still fits. */}
      <Box component="span" visibleFrom="xs">
        {PRODUCT_NAME}
      </Box>
    </Link>
  );
}
