import type { PortalConfig } from '@datalab/contract/api/portal-config';

// A token's expiry as the create forms offer it: presets of 7, 30 and 90 days (those within the server's maximum),
// the maximum itself, a date of one's own, and "never" where an administrator allows it. The server stops a token at
// 00:00 UTC on its expiry date (expiresOn), which must be after today and at most TOKEN_MAX_DAYS away.

export type ExpirySettings = PortalConfig['tokenExpiry'];
export type ExpiryChoice = `${number}` | 'custom' | 'never';

const DAY_MS = 86_400_000;
const PRESET_DAYS = [7, 30, 90];

/** Today's UTC date plus `days`, as YYYY-MM-DD. */
export function utcDateIn(days: number, now = Date.now()): string {
  return new Date(now + days * DAY_MS).toISOString().slice(0, 10);
}

const daysLabel = (days: number) =>
  days % 365 === 0 ? `${days / 365} year${days === 365 ? '' : 's'}` : `${days} days`;

export function expiryChoices(settings: ExpirySettings): { value: ExpiryChoice; label: string }[] {
  const days = [...new Set([...PRESET_DAYS.filter((d) => d <= settings.maxDays), settings.maxDays])];
  return [
    ...days.map((d) => ({ value: `${d}` as ExpiryChoice, label: daysLabel(d) })),
    { value: 'custom', label: 'Custom date' },
    ...(settings.allowNoExpiry ? [{ value: 'never' as const, label: 'Never' }] : []),
  ];
}

/** The preset the form starts with: the server's default when it is offered, else the longest one below it. */
export function defaultExpiryChoice(settings: ExpirySettings): ExpiryChoice {
  const offered = expiryChoices(settings)
    .map((choice) => Number(choice.value))
    .filter(Number.isFinite);
  const below = offered.filter((days) => days <= settings.defaultDays);
  return `${below.at(-1) ?? offered[0] ?? settings.defaultDays}`;
}

/** What a custom date is missing, in the server's words; undefined when it will do. */
export function customDateError(date: string, settings: ExpirySettings, now = Date.now()): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return 'Expiry is required';
  if (date <= utcDateIn(0, now)) return 'Expiry must be a date after today';
  if (date > utcDateIn(settings.maxDays, now)) return `Expiry must be at most ${settings.maxDays} days from today`;
  return undefined;
}

/** The request's expiresOn: a date, or null for never. */
export function expiresOnOf(choice: ExpiryChoice, customDate: string, now = Date.now()): string | null {
  if (choice === 'never') return null;
  if (choice === 'custom') return customDate;
  return utcDateIn(Number(choice), now);
}
