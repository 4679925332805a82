import { Paper } from '@mantine/core';
import { putUserGroup, type UserGroupDetail } from '@datalab/contract/api/user-groups';
import { NameDescriptionForm } from '../../../components/forms/NameDescriptionForm.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useUpdateUserGroup } from '../api/update-user-group.ts';

const putBody = putUserGroup.body;
if (!putBody) throw new Error('putUserGroup must define its body');
const body = putBody;

/** Rename and describe a group (the Details tab). */
export function GroupDetailsForm({ group }: { group: UserGroupDetail }) {
  const update = useUpdateUserGroup();
  return (
    <Paper withBorder radius="md" p="lg" maw={640}>
      <NameDescriptionForm
        // A saved change (here or elsewhere) starts the form afresh from the group as it is now.
        key={`${group.name}\n${group.description}`}
        schema={body}
        initialValues={{ name: group.name, description: group.description }}
        submitLabel="Save changes"
        requireChange
        onSubmit={async (values) => {
          await update.mutateAsync({ id: group.id, ...values });
          notifySuccess('Group saved');
        }}
      />
    </Paper>
  );
}
