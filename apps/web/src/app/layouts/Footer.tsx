import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';

const links = [
  { label: 'Privacy policy', to: paths.policy('private-policy') },
  { label: 'Terms and conditions', to: paths.policy('terms-and-conditions') },
  { label: 'Cookie policy', to: paths.policy('cookie-policy') },
  { label: 'Accessibility', to: paths.policy('accessibility') },
  { label: 'Contact us', to: paths.policy('contact-us') },
];

export function Footer() {
  return (
    <Box
      component="footer"
      role="contentinfo"
      py="lg"
      bg="gray.0"
      style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Container size="xl">
        <Group justify="space-between" gap="md">
          <Group gap="lg" component="nav" aria-label="Policies">
            {links.map((link) => (
              <Anchor key={link.to} component={Link} to={link.to} size="sm" c="dimmed">
                {link.label}
              </Anchor>
            ))}
          </Group>
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} {PRODUCT_NAME}
          </Text>
        </Group>
      </Container>
    </Box>
  );
}
