import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { DefinitionPlan } from '@datalab/contract/api/definitions';
import { countSentence, deletions, kindLabels } from '../model/plan-view.ts';

export interface ApplyConfirmationProps {
  collectionName: string;
  plan: DefinitionPlan;
  isBusy: boolean;
  onBack: () => void;
  onApply: () => void;
}

/** The last look before applying: how much changes, and by name everything that would be deleted. */
export function ApplyConfirmation({ collectionName, plan, isBusy, onBack, onApply }: ApplyConfirmationProps) {
  const removed = deletions(plan.changes);
  return (
    <section aria-label="Confirm apply">
      <Alert
        color={removed.length > 0 ? 'red' : 'blue'}
        variant="light"
        icon={removed.length > 0 ? <IconAlertTriangle size={18} /> : undefined}
        title={`Apply to ${collectionName}?`}
      >
        <Stack gap="sm">
          <Text size="sm">This makes {countSentence(plan.changes)} in one transaction.</Text>
          {removed.length > 0 ? (
            <>
              <Text size="sm" fw={600}>
                The document prunes what it leaves out. These are deleted:
              </Text>
              <List size="sm" spacing={2} aria-label="Deleted">
                {removed.map((change) => (
                  <List.Item key={`${change.kind}:${change.name}`}>
                    {kindLabels[change.kind].one} {change.name}
                  </List.Item>
                ))}
              </List>
            </>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onBack} disabled={isBusy}>
              Back
            </Button>
            <Button color={removed.length > 0 ? 'red' : undefined} onClick={onApply} loading={isBusy}>
              {removed.length > 0 ? `Apply and delete ${removed.length}` : 'Apply'}
            </Button>
          </Group>
        </Stack>
      </Alert>
    </section>
  );
}
