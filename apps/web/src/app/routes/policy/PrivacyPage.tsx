import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { PolicyArticle, PolicySection } from './PolicyArticle.tsx';

export function PrivacyPage() {
  return (
    <PolicyArticle
      page="private-policy"
      summary={`Which personal data ${PRODUCT_NAME} processes about you, why, and for how long.`}
    >
      <PolicySection title="Your account">
        {`When you first sign in, ${PRODUCT_NAME} creates your user record from what the sign-in service tells it: your name, username and email address, and a stable identifier issued by that service. Your system permissions, group memberships and data roles are stored with it.`}
      </PolicySection>
      <PolicySection title="Usage and logs">
        <Text>To run the service securely and to show owners how their data is used, {PRODUCT_NAME} records:</Text>
        <List spacing="xs">
          <List.Item>
            each call: who made it, the data asset, the token used, its status, duration, rows and bytes;
          </List.Item>
          <List.Item>download jobs you start, and the files they produce until they expire;</List.Item>
          <List.Item>application logs of errors, each under a request id, which administrators can read.</List.Item>
        </List>
        <Text>Records and logs are kept for a limited retention period set by the operator, then deleted.</Text>
      </PolicySection>
      <PolicySection title="Tokens">
        {`The secret of an access token is shown to you once and stored only as a hash. ${PRODUCT_NAME} keeps each token's name, expiry, data roles and when it was last used.`}
      </PolicySection>
      <PolicySection title="What stays in your browser">
        <Text>
          Your sign-in session is kept in your browser&apos;s session storage and ends when you sign out or close the
          tab; a few preferences are kept in local storage. The{' '}
          <Anchor component={Link} to={paths.policy('cookie-policy')}>
            cookie policy
          </Anchor>{' '}
          lists every entry.
        </Text>
      </PolicySection>
      <PolicySection title="Who can see your data">
        {`Administrators of ${PRODUCT_NAME} can see user records, usage and logs. Owners of a collection can see who holds roles in it and how its assets are used. Nothing is sold or shared for advertising.`}
      </PolicySection>
      <PolicySection title="Your rights">
        <Text>
          You may ask which data is held about you, and have it corrected or, where the organisation&apos;s rules allow,
          deleted. See{' '}
          <Anchor component={Link} to={paths.policy('contact-us')}>
            Contact us
          </Anchor>{' '}
          for whom to ask.
        </Text>
      </PolicySection>
    </PolicyArticle>
  );
}
