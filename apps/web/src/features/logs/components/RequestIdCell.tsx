import { ActionIcon, Anchor, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { requestRecordsPath } from '../model/log-filters.ts';

/** How many trailing characters of a request id the table shows. */
export const REQUEST_ID_TAIL = 12;

/**
 * The part of a request id that tells requests apart. Ids are UUIDv7: their first characters are a timestamp,
 * shared by every request of the same moment, so the table shows the random end, after an ellipsis.
 */
export function shortRequestId(requestId: string): string {
  return requestId.length <= REQUEST_ID_TAIL + 1 ? requestId : `…${requestId.slice(-REQUEST_ID_TAIL)}`;
}

/** A request id: its distinguishing end links to the request's records; the button copies the whole id. */
export function RequestIdCell({ requestId }: { requestId: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Anchor
        component={Link}
        to={requestRecordsPath(requestId)}
        size="sm"
        ff="monospace"
        title={requestId}
        aria-label={`Records of request ${requestId}`}
      >
        {shortRequestId(requestId)}
      </Anchor>
      <CopyButton value={requestId} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy the whole request id'} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="sm"
              onClick={copy}
              aria-label={`Copy request id ${requestId}`}
            >
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
