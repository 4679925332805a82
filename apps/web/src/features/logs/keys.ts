import type { ApplicationLogQuery } from '@datalab/contract/api/application-logs';

export const logKeys = {
  all: ['application-logs'] as const,
  lists: () => [...logKeys.all, 'list'] as const,
  list: (query: ApplicationLogQuery) => [...logKeys.lists(), query] as const,
  record: (id: number) => [...logKeys.all, 'record', id] as const,
};
