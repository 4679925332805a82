import { List, Text } from '@mantine/core';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { PolicyArticle, PolicySection } from './PolicyArticle.tsx';

export function TermsPage() {
  return (
    <PolicyArticle
      page="terms-and-conditions"
      summary={`The rules for using ${PRODUCT_NAME}: what you may do with the data you reach through it, and what you are responsible for.`}
    >
      <PolicySection title="Who may use Data Lab">
        {`You may use ${PRODUCT_NAME} once your organisation has given you an account. Signing in means you accept these terms. Access to each collection is granted through data roles (Owner, Editor, Reader) by the collection's owners or an administrator; having an account does not by itself give access to any data.`}
      </PolicySection>
      <PolicySection title="Using the data">
        <List spacing="xs">
          <List.Item>Use data only for the purpose it was shared with you for, and within your data roles.</List.Item>
          <List.Item>
            Do not try to reach data outside your roles, work around row caps, rate limits or masking, or probe the
            connections behind a data asset.
          </List.Item>
          <List.Item>
            Handle downloaded results as carefully as the source: the classification of the data travels with it.
          </List.Item>
        </List>
      </PolicySection>
      <PolicySection title="Tokens are secrets">
        <Text>
          Access tokens, including personal access tokens, act with your authority. Keep them out of source code, shared
          documents and chats, give each one only the collections it needs, and revoke a token as soon as it is no
          longer needed or may have leaked. Token secrets are shown once and cannot be recovered.
        </Text>
      </PolicySection>
      <PolicySection title="What is recorded">
        {`Every call — in the portal, through the calling layer or as a download — is recorded with who made it, which data asset and token were used, its outcome, duration and size. Data owners and administrators use these records to understand usage and to investigate misuse. See the privacy policy for details.`}
      </PolicySection>
      <PolicySection title="Data owners">
        {`Owners of a collection are responsible for the data assets in it: that the data may be shared, that parameters and transformations (such as masking) protect what must be protected, and that roles are granted only to those who need them.`}
      </PolicySection>
      <PolicySection title="Availability and changes">
        {`${PRODUCT_NAME} is provided as is. Calls may be limited in rate and size to keep the service fair for everyone, and it may be unavailable during maintenance. These terms may change; the version shown here is the one that applies.`}
      </PolicySection>
    </PolicyArticle>
  );
}
