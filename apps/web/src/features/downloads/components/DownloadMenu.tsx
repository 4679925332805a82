import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { downloadFormats, type DownloadFormat } from '@datalab/contract/api/downloads';
import { formatLabels } from '../format.ts';

export interface DownloadMenuProps {
  isBusy: boolean;
  onDownload: (format: DownloadFormat) => void;
}

/** The call screen's Download button: a menu of the formats a download job writes. */
export function DownloadMenu({ isBusy, onDownload }: DownloadMenuProps) {
  return (
    <Menu position="bottom-start" width={220}>
      <Menu.Target>
        <Button
          variant="default"
          loading={isBusy}
          leftSection={<IconDownload size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
        >
          Download
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>The whole result as a file</Menu.Label>
        {downloadFormats.map((format) => (
          <Menu.Item key={format} onClick={() => onDownload(format)}>
            {formatLabels[format]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
