import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { limits } from '@datalab/contract/limits';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { PolicyArticle, PolicySection } from './PolicyArticle.tsx';

export function AccessibilityPage() {
  return (
    <PolicyArticle
      page="accessibility"
      summary={`${PRODUCT_NAME} aims to be usable by as many people as possible, and to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA.`}
    >
      <PolicySection title="What you can expect">
        <List spacing="xs">
          <List.Item>
            Every page and control can be reached and used with a keyboard alone, with a visible focus.
          </List.Item>
          <List.Item>Form fields have labels, and errors say which field they concern and what to do.</List.Item>
          <List.Item>
            Text and controls keep at least the WCAG AA contrast, and pages work when zoomed to 200%.
          </List.Item>
          <List.Item>Headings, landmarks and tables are marked up so that screen readers can navigate them.</List.Item>
          <List.Item>Your system font and your operating system&apos;s reduced-motion setting are respected.</List.Item>
        </List>
      </PolicySection>
      <PolicySection title="Known limitations">
        <List spacing="xs">
          <List.Item>
            {`Screens narrower than ${limits.mobileWidthPx} pixels are not supported, except the home page: data grids and editors need the room. Switching on developer mode in the header lifts this restriction.`}
          </List.Item>
          <List.Item>Very wide result grids need horizontal scrolling.</List.Item>
        </List>
      </PolicySection>
      <PolicySection title="Reporting a problem">
        <Text>
          If something in {PRODUCT_NAME} is hard or impossible for you to use, tell us what you were trying to do and
          which page you were on — see{' '}
          <Anchor component={Link} to={paths.policy('contact-us')}>
            Contact us
          </Anchor>
          . We will reply, and provide the information in another form if we cannot fix it quickly.
        </Text>
      </PolicySection>
      <PolicySection title="How this statement was prepared">
        {`This statement describes the standard ${PRODUCT_NAME} is built and tested to: WCAG 2.2 at level AA. It is reviewed with every major release, and known gaps are listed above until they are fixed.`}
      </PolicySection>
    </PolicyArticle>
  );
}
