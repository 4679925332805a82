import { useState } from 'react';
import { Alert, Button, FileButton, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { DEFINITION_MAX_BYTES, type DefinitionPlan } from '@datalab/contract/api/definitions';
import { formatBytes } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useIsMobile } from '../../../lib/use-is-mobile.ts';
import { useApplyDefinition } from '../api/apply-definition.ts';
import { usePlanDefinition } from '../api/plan-definition.ts';
import { countSentence, deletions } from '../model/plan-view.ts';
import { ApplyConfirmation } from './ApplyConfirmation.tsx';
import { DefinitionErrors } from './DefinitionErrors.tsx';
import { PlanDiff } from './PlanDiff.tsx';
import { SecretFields } from './SecretFields.tsx';

export interface ImportDefinitionDialogProps {
  collection: { uid: string; name: string };
  isOpen: boolean;
  onClose: () => void;
}

type Step = 'plan' | 'confirm' | 'applied';

const byteLength = (text: string) => new TextEncoder().encode(text).length;
const TOO_LARGE = `A definition document may hold at most ${formatBytes(DEFINITION_MAX_BYTES)}`;

/**
 * Import: a document pasted or uploaded, planned against the collection (touching nothing), its changes read as a
 * diff, the secrets it needs entered, then applied after a confirmation that names what would be deleted.
 */
export function ImportDefinitionDialog({ collection, isOpen, onClose }: ImportDefinitionDialogProps) {
  const isMobile = useIsMobile();
  const [document, setDocument] = useState('');
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [step, setStep] = useState<Step>('plan');
  const [fileError, setFileError] = useState<string | null>(null);
  /** What the shown plan was made from: a plan of another document or other secrets is not applied. */
  const [planned, setPlanned] = useState<{ document: string; secrets: string } | null>(null);
  const plan = usePlanDefinition(collection.uid);
  const apply = useApplyDefinition(collection.uid);

  const isTooLarge = byteLength(document) > DEFINITION_MAX_BYTES;
  const current: DefinitionPlan | undefined = plan.data;
  const isCurrent = planned?.document === document && planned.secrets === JSON.stringify(secrets);
  const canApply =
    current !== undefined && isCurrent && current.missingSecrets.length === 0 && current.changes.length > 0;
  const removed = current ? deletions(current.changes) : [];

  const reset = () => {
    setDocument('');
    setSecrets({});
    setStep('plan');
    setFileError(null);
    setPlanned(null);
    plan.reset();
    apply.reset();
  };
  const handleClose = () => {
    reset();
    onClose();
  };
  const handleDocument = (text: string) => {
    setDocument(text);
    setStep('plan');
    setPlanned(null);
    plan.reset();
    apply.reset();
  };
  const handleFile = async (file: File | null) => {
    if (!file) return;
    if (file.size > DEFINITION_MAX_BYTES) return setFileError(`${file.name} is too large. ${TOO_LARGE}.`);
    setFileError(null);
    handleDocument(await file.text());
  };
  const handlePlan = () => {
    setPlanned({ document, secrets: JSON.stringify(secrets) });
    apply.reset();
    plan.mutate({ document, secrets });
  };
  const handleApply = () =>
    apply.mutate(
      { document, secrets },
      {
        onSuccess: (applied) => {
          setStep('applied');
          notifySuccess(
            applied.changes.length > 0
              ? `${collection.name}: ${countSentence(applied.changes, { done: true })}`
              : `${collection.name} already matched the document`,
          );
        },
      },
    );

  return (
    <Modal
      opened={isOpen}
      onClose={handleClose}
      title={`Import into ${collection.name}`}
      size="72rem"
      fullScreen={isMobile}
      closeOnClickOutside={false}
    >
      {step === 'applied' && apply.data ? (
        <Stack gap="md">
          <Text size="sm">
            {apply.data.changes.length > 0
              ? `Applied to ${collection.name}: ${countSentence(apply.data.changes, { done: true })}.`
              : `${collection.name} already matched the document.`}
          </Text>
          <PlanDiff changes={apply.data.changes} isApplied />
          <Group justify="flex-end">
            <Button onClick={handleClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Paste a definition document (YAML or JSON, as Export writes it) or upload its file. Plan shows what it would
            change in {collection.name}, touching nothing; Apply makes all of it in one transaction.
          </Text>
          <Textarea
            label="Definition document"
            value={document}
            onChange={(event) => handleDocument(event.currentTarget.value)}
            autosize
            minRows={10}
            maxRows={18}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            error={isTooLarge ? TOO_LARGE : fileError}
            disabled={step === 'confirm'}
          />
          <Group justify="space-between" gap="sm">
            <FileButton
              onChange={(file) => void handleFile(file)}
              accept=".yaml,.yml,.json,application/yaml,application/json,text/yaml"
            >
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  leftSection={<IconUpload size={16} />}
                  disabled={step === 'confirm'}
                >
                  Upload file
                </Button>
              )}
            </FileButton>
            <Button
              onClick={handlePlan}
              loading={plan.isPending}
              disabled={document.trim() === '' || isTooLarge || step === 'confirm'}
            >
              {current ? 'Plan again' : 'Plan'}
            </Button>
          </Group>
          {plan.error ? <DefinitionErrors error={plan.error} /> : null}
          {current ? (
            <Stack gap="md" component="section" aria-label="Plan">
              {current.missingSecrets.length > 0 ? (
                <SecretFields
                  references={current.missingSecrets}
                  values={secrets}
                  onChange={(reference, value) => setSecrets((previous) => ({ ...previous, [reference]: value }))}
                />
              ) : null}
              {isCurrent ? null : (
                <Alert color="yellow" variant="light">
                  The document or the secrets changed since this plan: plan again before applying.
                </Alert>
              )}
              {current.changes.length > 0 ? (
                <Text size="sm" fw={600}>
                  {countSentence(current.changes)}
                </Text>
              ) : null}
              <PlanDiff changes={current.changes} />
            </Stack>
          ) : null}
          {step === 'confirm' && current ? (
            <ApplyConfirmation
              collectionName={collection.name}
              plan={current}
              isBusy={apply.isPending}
              onBack={() => setStep('plan')}
              onApply={handleApply}
            />
          ) : null}
          {apply.error ? <DefinitionErrors error={apply.error} /> : null}
          {step === 'plan' && canApply ? (
            <Group justify="flex-end">
              <Button color={removed.length > 0 ? 'red' : undefined} onClick={() => setStep('confirm')}>
                Apply…
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </Modal>
  );
}
