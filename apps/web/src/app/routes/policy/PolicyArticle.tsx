import type { ReactNode } from 'react';
import { Anchor, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths, policyPages, type PolicyPage } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { PageFrame } from '../../../components/page/PageFrame.tsx';

const policyTitles: Record<PolicyPage, string> = {
  'terms-and-conditions': 'Terms and conditions',
  'private-policy': 'Privacy policy',
  'cookie-policy': 'Cookie policy',
  accessibility: 'Accessibility statement',
  'contact-us': 'Contact us',
};

export interface PolicyArticleProps {
  page: PolicyPage;
  summary: ReactNode;
  children: ReactNode;
}

/** The frame of the five policy pages: title, summary, sections, and links to the others. */
export function PolicyArticle({ page, summary, children }: PolicyArticleProps) {
  return (
    <PageFrame title={policyTitles[page]} description={summary} size="md">
      <Stack gap="xl">
        {children}
        <Divider />
        <Anchor component={Link} to={paths.home} size="sm" fw={600}>
          Back to {PRODUCT_NAME} home
        </Anchor>
        <Group gap="lg" component="nav" aria-label="Other policies">
          {policyPages
            .filter((other) => other !== page)
            .map((other) => (
              <Anchor key={other} component={Link} to={paths.policy(other)} size="sm">
                {policyTitles[other]}
              </Anchor>
            ))}
        </Group>
      </Stack>
    </PageFrame>
  );
}

export function PolicySection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={2} fz="h4">
        {title}
      </Title>
      {typeof children === 'string' ? <Text>{children}</Text> : children}
    </Stack>
  );
}
