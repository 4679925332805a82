import { useSearchParams } from 'react-router';
import { periodRange, readPeriod, withPeriod, type PeriodRange, type UsagePeriod } from './period.ts';

/** The period in the URL, its range as of now, and a setter that keeps the URL's other parameters. */
export function useUsagePeriod(): { period: UsagePeriod; range: PeriodRange; setPeriod: (next: UsagePeriod) => void } {
  const [params, setParams] = useSearchParams();
  const period = readPeriod(params);
  // Recomputed every render, but equal until the next bucket starts (period.ts): the query key stays put.
  const range = periodRange(period);
  const setPeriod = (next: UsagePeriod) => setParams((current) => withPeriod(current, next), { replace: true });
  return { period, range, setPeriod };
}
