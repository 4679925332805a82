import { Anchor, DataList, Drawer, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useApplicationLog } from '../api/get-application-log.ts';
import { requestRecordsPath } from '../model/log-filters.ts';
import { LevelBadge } from './LevelBadge.tsx';
import { LogDetails } from './LogDetails.tsx';

export interface LogDrawerProps {
  recordId: number | null;
  onClose: () => void;
}

const userRecordsPath = (user: { id: number; name: string }) =>
  `${paths.logManagement}?${new URLSearchParams({ userId: String(user.id), userName: user.name })}`;

/** One record: when, what, the request and the user it is about, and its details. */
export function LogDrawer({ recordId, onClose }: LogDrawerProps) {
  const record = useApplicationLog(recordId);

  let content;
  if (recordId === null) content = null;
  else if (record.isPending) content = <PageLoader label="Loading the record" />;
  else if (record.isError) content = <InlineError error={record.error} />;
  else {
    const { data } = record;
    content = (
      <Stack gap="xl">
        <DataList labelWidth={150} gap="sm">
          <DataList.Item>
            <DataList.ItemLabel>Time</DataList.ItemLabel>
            <DataList.ItemValue>{formatDateTime(data.createdAt)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Level</DataList.ItemLabel>
            <DataList.ItemValue>
              <LevelBadge level={data.level} />
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Category</DataList.ItemLabel>
            <DataList.ItemValue>{data.category}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>User</DataList.ItemLabel>
            <DataList.ItemValue>
              {data.user ? (
                <Group gap="sm">
                  <Text size="sm">
                    {data.user.name}
                    {data.user.username ? ` (${data.user.username})` : ''}
                  </Text>
                  <Anchor component={Link} to={userRecordsPath(data.user)} size="sm">
                    Show this user’s records
                  </Anchor>
                </Group>
              ) : (
                'None'
              )}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Request</DataList.ItemLabel>
            <DataList.ItemValue>
              {data.requestId ? (
                <Anchor component={Link} to={requestRecordsPath(data.requestId)} size="sm" ff="monospace">
                  {data.requestId}
                </Anchor>
              ) : (
                'None'
              )}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {data.message}
        </Text>
        <LogDetails category={data.category} details={data.details} />
      </Stack>
    );
  }

  return (
    <Drawer
      opened={recordId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Text fw={700} size="lg">
          Log record
        </Text>
      }
    >
      {content}
    </Drawer>
  );
}
