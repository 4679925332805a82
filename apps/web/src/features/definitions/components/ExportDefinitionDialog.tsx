import { Button, Code, CopyButton, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { saveBlob } from '../../../lib/save-blob.ts';
import { useDefinitionYaml } from '../api/export-definition.ts';
import { definitionFileName } from '../model/plan-view.ts';

export interface ExportDefinitionDialogProps {
  collection: { uid: string; name: string };
  isOpen: boolean;
  onClose: () => void;
}

/** The collection's definition as YAML: shown, copied or saved as `<name>.datalab.yaml`. */
export function ExportDefinitionDialog({ collection, isOpen, onClose }: ExportDefinitionDialogProps) {
  const definition = useDefinitionYaml(collection.uid, isOpen);
  const fileName = definitionFileName(collection.name);
  const handleDownload = (yaml: string) => saveBlob(new Blob([yaml], { type: 'application/yaml' }), fileName);

  return (
    <Modal opened={isOpen} onClose={onClose} title={`Export ${collection.name}`} size="64rem">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Everything the collection holds except secret values, which the document names by reference. Keep it in
          version control and bring it to another Data Lab with Import, or with <Code>npx datalab definition</Code>.
        </Text>
        {definition.isPending ? <PageLoader label="Loading the definition" /> : null}
        {definition.error ? <InlineError error={definition.error} /> : null}
        {definition.data !== undefined ? (
          <>
            <ScrollArea.Autosize mah="55vh" type="auto">
              <Code block aria-label={fileName} style={{ whiteSpace: 'pre' }}>
                {definition.data}
              </Code>
            </ScrollArea.Autosize>
            <Group justify="flex-end" gap="sm">
              <CopyButton value={definition.data}>
                {({ copied, copy }) => (
                  <Button
                    variant="default"
                    onClick={copy}
                    leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  >
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
              <Button leftSection={<IconDownload size={16} />} onClick={() => handleDownload(definition.data)}>
                Download {fileName}
              </Button>
            </Group>
          </>
        ) : null}
      </Stack>
    </Modal>
  );
}
