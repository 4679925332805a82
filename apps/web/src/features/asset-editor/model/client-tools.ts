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
