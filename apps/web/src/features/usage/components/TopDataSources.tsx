import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { DataSourceMetricsSummary } from '@datalab/contract/api/reporting';
import { paths } from '@datalab/contract/paths';
import { formatCount } from '../format.ts';
import { MetricCells, MetricHeaders } from './MetricCells.tsx';

export interface TopDataSourcesProps {
  items: DataSourceMetricsSummary[];
  /** Off inside one collection, where every row would name it. */
  showCollection: boolean;
}

function DataSourceName({ dataSource }: { dataSource: DataSourceMetricsSummary['dataSource'] }) {
  // An asset deleted since keeps its usage; only its uid is left to name it.
  if (dataSource.name === null) {
    return (
      <Text size="sm" c="dimmed">
        Deleted asset ({dataSource.uid})
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={paths.dataSource(dataSource.uid)} size="sm">
      {dataSource.name}
    </Anchor>
  );
}

/** Data sources by calls over the period, each linked to its page (where its own usage is shown). */
export function TopDataSources({ items, showCollection }: TopDataSourcesProps) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table aria-label="Top data sources" striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Data source</Table.Th>
            {showCollection ? <Table.Th scope="col">Collection</Table.Th> : null}
            <MetricHeaders />
            <Table.Th scope="col" ta="right">
              Users
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.dataSource.uid}>
              <Table.Td>
                <DataSourceName dataSource={item.dataSource} />
              </Table.Td>
              {showCollection ? (
                <Table.Td>
                  {item.dataSource.collection ? (
                    <Anchor component={Link} to={paths.collection(item.dataSource.collection.uid, 'usage')} size="sm">
                      {item.dataSource.collection.name}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              ) : null}
              <MetricCells metrics={item.totals} />
              <Table.Td ta="right">{formatCount(item.totals.distinctUsers)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
