import { messages } from '@datalab/contract/messages';
import { IconFileText, IconFilterOff } from '@tabler/icons-react';
import { Button, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { LOG_COUNT_LIMIT } from '@datalab/contract/api/application-logs';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PagedList } from '../../../components/search/PagedList.tsx';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useApplicationLogs } from '../../../features/logs/api/get-application-logs.ts';
import { LogDrawer } from '../../../features/logs/components/LogDrawer.tsx';
import { LogFilterBar } from '../../../features/logs/components/LogFilterBar.tsx';
import { LogTable } from '../../../features/logs/components/LogTable.tsx';
import {
  filterNames,
  hasLogFilters,
  logQuery,
  readLogFilters,
  withLogFilters,
} from '../../../features/logs/model/log-filters.ts';
import { UserPicker } from '../../../features/users/components/UserPicker.tsx';

const PAGE_SIZE = 50;

/** /management/logs: the application log, filtered in the URL, a record's details in a drawer. */
export function LogManagementPage() {
  const [params, setParams] = useSearchParams();
  const searchState = useSearchState();
  const filters = readLogFilters(params);
  const records = useApplicationLogs(logQuery(filters, searchState.search, searchState.page, PAGE_SIZE));
  const openId = Number(params.get('record')) || null;
  const isFiltered = hasLogFilters(filters);

  const change = (changes: Parameters<typeof withLogFilters>[1]) =>
    setParams((current) => withLogFilters(current, changes));
  const clear = () =>
    change({ ...Object.fromEntries(filterNames.map((name) => [name, undefined])), record: undefined });

  return (
    <PageFrame
      title="Log management"
      description="The application log: errors, audit records of every change and reports from the portal, newest first. Follow a request id to see everything that request wrote."
    >
      <Stack gap="md">
        <LogFilterBar
          filters={filters}
          hasFilters={isFiltered}
          onChange={change}
          onClear={clear}
          userPicker={
            <UserPicker
              label="User"
              selected={
                filters.userId ? { id: filters.userId, label: filters.userName ?? `User ${filters.userId}` } : null
              }
              onSelect={(user) => change({ userId: user?.id, userName: user?.label })}
            />
          }
        />
        <PagedList
          state={searchState}
          pageSize={PAGE_SIZE}
          query={records}
          placeholder="Search messages"
          loadingLabel="Loading the application log"
          noun="record"
          isCountLive
          noMatch={{
            title: `No records match “${searchState.search}”`,
            description:
              'The search looks for the text in messages, whatever its case. Try fewer words or other filters.',
            canClear: true,
          }}
          empty={
            isFiltered ? (
              <EmptyPanel
                icon={<IconFilterOff size={28} stroke={1.5} />}
                title={messages.noneFound('log record')}
                description="No record matches these filters. Widen the period, lower the level or clear the filters."
                actions={
                  <Button variant="default" size="xs" onClick={clear}>
                    Clear filters
                  </Button>
                }
              />
            ) : (
              <EmptyPanel
                icon={<IconFileText size={28} stroke={1.5} />}
                title="The application log is empty"
                description="Errors, audit records of changes and reports from the portal appear here as they happen."
              />
            )
          }
        >
          {(items) => (
            <>
              {records.data?.isCountCapped ? (
                <Text size="sm" c="dimmed">
                  More than {LOG_COUNT_LIMIT.toLocaleString('en')} records match: narrow the filters to count them all.
                </Text>
              ) : null}
              <LogTable records={items} onOpen={(record) => change({ record: record.id })} />
            </>
          )}
        </PagedList>
      </Stack>
      <LogDrawer recordId={openId} onClose={() => change({ record: undefined })} />
    </PageFrame>
  );
}
