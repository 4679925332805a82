import { useId, type ReactNode } from 'react';
import { Box, Paper, Table, Text, Title } from '@mantine/core';

export interface ChartColumn {
  label: string;
  /** The figure as the table shows it. */
  format: (row: number) => string;
}

export interface ChartFigureProps {
  headingOrder: 2 | 3 | 4;
  title: string;
  /** A sentence saying what the chart shows (its text alternative, with the table). */
  summary: string;
  /** One label per row (bucket). */
  rowLabels: string[];
  columns: ChartColumn[];
  children: ReactNode;
}

/**
 * A chart with its text alternative (WCAG 1.1.1): a caption that sums it up and, one click away, the same data as
 * a table. The drawing itself is hidden from assistive technology, which reads the caption and the table instead.
 */
export function ChartFigure({ headingOrder, title, summary, rowLabels, columns, children }: ChartFigureProps) {
  const titleId = useId();
  return (
    <Paper withBorder radius="md" p="md" component="figure" m={0} aria-labelledby={titleId}>
      <Title order={headingOrder} fz="h5" id={titleId}>
        {title}
      </Title>
      <Text component="figcaption" size="sm" c="dimmed" mb="sm">
        {summary}
      </Text>
      <Box aria-hidden>{children}</Box>
      <Box component="details" mt="sm">
        <Text component="summary" size="sm">
          Show the data as a table
        </Text>
        <Table.ScrollContainer minWidth={320} mt="xs">
          <Table striped stickyHeader aria-label={`${title}: data`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Period</Table.Th>
                {columns.map((column) => (
                  <Table.Th key={column.label} scope="col" ta="right">
                    {column.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rowLabels.map((label, row) => (
                <Table.Tr key={label}>
                  <Table.Th scope="row" fw={400}>
                    {label}
                  </Table.Th>
                  {columns.map((column) => (
                    <Table.Td key={column.label} ta="right">
                      {column.format(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
    </Paper>
  );
}
