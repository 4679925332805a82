import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';

export interface ErrorPageContent {
  summary: string;
  message: string;
  /** Shown only in developer mode. */
  details?: string;
}

/** `/error?errorSummary=…&errorMessage=…` (product §2), with optional developer details. */
export function errorPageUrl({ summary, message, details }: ErrorPageContent): string {
  const query = new URLSearchParams({ errorSummary: summary, errorMessage: message });
  if (details) query.set('details', details);
  return `${paths.error}?${query.toString()}`;
}

export const unauthorisedPageUrl = (details?: string) =>
  errorPageUrl({ summary: texts.unauthorised.summary, message: texts.unauthorised.message, details });
