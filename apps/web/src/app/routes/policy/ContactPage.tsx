import { List, Text } from '@mantine/core';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { PolicyArticle, PolicySection } from './PolicyArticle.tsx';

export function ContactPage() {
  return (
    <PolicyArticle page="contact-us" summary={`Who can help with what in ${PRODUCT_NAME}.`}>
      <PolicySection title="Access to a collection">
        {`Data roles on a collection are granted by its owners. Open the collection to see who they are and ask one of them; if a collection has no owner you can reach, ask a ${PRODUCT_NAME} administrator.`}
      </PolicySection>
      <PolicySection title="Your account and permissions">
        {`Administrators manage user accounts, user groups and system permissions. Your organisation's service desk knows who the ${PRODUCT_NAME} administrators are.`}
      </PolicySection>
      <PolicySection title="Reporting an error">
        <Text>So that an error can be found quickly, please include:</Text>
        <List spacing="xs">
          <List.Item>the page address and what you were doing;</List.Item>
          <List.Item>the time it happened and the message shown;</List.Item>
          <List.Item>
            the request id, if one was shown — switch on developer mode in the header to see the full details of an
            error.
          </List.Item>
        </List>
      </PolicySection>
      <PolicySection title="Security and privacy">
        {`If you think a token or data has leaked, revoke the token at once from the Tokens page, then tell an administrator. For questions about your personal data, see the privacy policy; the administrators will pass your request to whoever is responsible for it in your organisation.`}
      </PolicySection>
    </PolicyArticle>
  );
}
