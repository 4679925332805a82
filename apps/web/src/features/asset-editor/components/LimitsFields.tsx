import { NumberInput, SimpleGrid } from '@mantine/core';
import type { AssetDraft } from '../model/asset-draft.ts';

type Limits = Pick<AssetDraft, 'rowCap' | 'maxExportRows' | 'timeoutMs' | 'cacheTtlSeconds'>;

/** Row caps, the timeout and the cache of an asset: the same for SQL and Web API assets. */
export function LimitsFields({ limits, onChange }: { limits: Limits; onChange: (change: Partial<Limits>) => void }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }}>
      <NumberInput
        label="Rows per interactive call, at most"
        min={1}
        max={100_000}
        value={limits.rowCap}
        onChange={(v) => onChange({ rowCap: Number(v) || 1 })}
      />
      <NumberInput
        label="Rows per download, at most"
        min={1}
        max={10_000_000}
        value={limits.maxExportRows}
        onChange={(v) => onChange({ maxExportRows: Number(v) || 1 })}
      />
      <NumberInput
        label="Timeout (ms)"
        min={100}
        max={600_000}
        value={limits.timeoutMs}
        onChange={(v) => onChange({ timeoutMs: Number(v) || 100 })}
      />
      <NumberInput
        label="Cache for (s, 0 = off)"
        min={0}
        max={86_400}
        value={limits.cacheTtlSeconds}
        onChange={(v) => onChange({ cacheTtlSeconds: Number(v) || 0 })}
      />
    </SimpleGrid>
  );
}
