import { useNavigate } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { NameDescriptionForm } from '../../../components/forms/NameDescriptionForm.tsx';
import { FormPage } from '../../../components/page/FormPage.tsx';
import { useCreateUserGroup, userGroupBody } from '../../../features/user-groups/api/create-user-group.ts';
import { notifySuccess } from '../../../lib/notify.ts';

export function UserGroupCreatePage() {
  const navigate = useNavigate();
  const creation = useCreateUserGroup();
  return (
    <FormPage
      title="Create user group"
      description="Name the group; then add its members and nested groups, and grant it roles on collections."
    >
      <NameDescriptionForm
        schema={userGroupBody}
        submitLabel="Create group"
        namePlaceholder="e.g. Finance analysts"
        descriptionPlaceholder="Who belongs here and why"
        onSubmit={async (values) => {
          const created = await creation.mutateAsync(values);
          notifySuccess(`Group ${created.name} created`);
          await navigate(paths.userGroup(created.id, 'members'));
        }}
        onCancel={() => void navigate(paths.userGroups)}
      />
    </FormPage>
  );
}
