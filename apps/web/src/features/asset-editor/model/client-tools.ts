import { clientTools, type ClientTool } from '@datalab/contract/api/data-sources';

export const clientToolLabels: Record<ClientTool, string> = {
  curl: 'curl',
  python: 'Python',
  r: 'R',
  javascript: 'JavaScript',
  powerquery: 'Excel Power Query',
  powerbi: 'Power BI',
};

export const clientToolOptions = clientTools.map((tool) => ({ value: tool, label: clientToolLabels[tool] }));

/** What to change so that exactly `wanted` is configured: tools to add, and the ids of configurations to delete. */
export function clientToolChanges(
  wanted: readonly ClientTool[],
  stored: readonly { id: number; tool: ClientTool }[],
): { add: ClientTool[]; remove: number[] } {
  return {
    add: wanted.filter((tool) => !stored.some((configuration) => configuration.tool === tool)),
    remove: stored.filter((configuration) => !wanted.includes(configuration.tool)).map((c) => c.id),
  };
}
