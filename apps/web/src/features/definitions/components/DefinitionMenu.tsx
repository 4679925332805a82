import { useState } from 'react';
import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileCode, IconFileExport, IconFileImport } from '@tabler/icons-react';
import { ExportDefinitionDialog } from './ExportDefinitionDialog.tsx';
import { ImportDefinitionDialog } from './ImportDefinitionDialog.tsx';

/** The collection's definition as code (Owners): Export it as YAML, Import a document with a plan first. */
export function DefinitionMenu({ collection }: { collection: { uid: string; name: string } }) {
  const [dialog, setDialog] = useState<'export' | 'import' | null>(null);
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconFileCode size={16} />}
            rightSection={<IconChevronDown size={14} />}
          >
            Definition
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconFileExport size={16} />} onClick={() => setDialog('export')}>
            Export
          </Menu.Item>
          <Menu.Item leftSection={<IconFileImport size={16} />} onClick={() => setDialog('import')}>
            Import
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ExportDefinitionDialog collection={collection} isOpen={dialog === 'export'} onClose={() => setDialog(null)} />
      <ImportDefinitionDialog collection={collection} isOpen={dialog === 'import'} onClose={() => setDialog(null)} />
    </>
  );
}
