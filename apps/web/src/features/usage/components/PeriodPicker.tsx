import { useId } from 'react';
import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { granularities, type Granularity } from '@datalab/contract/api/reporting';
import { periodPresets, presetRules, type UsagePeriod } from '../period.ts';

const granularityLabels: Record<Granularity, string> = { hour: 'By hour', day: 'By day', week: 'By week' };

export interface PeriodPickerProps {
  value: UsagePeriod;
  onChange: (next: UsagePeriod) => void;
}

/** The period (last 24 hours … last 90 days) and, where a period offers more than one, its granularity. */
export function PeriodPicker({ value, onChange }: PeriodPickerProps) {
  const periodLabel = useId();
  const granularityLabel = useId();
  const offered = presetRules[value.preset].granularities;
  const handlePreset = (picked: string) => {
    const preset = periodPresets.find((candidate) => candidate === picked);
    if (preset) onChange({ preset, granularity: presetRules[preset].granularities[0] });
  };
  const handleGranularity = (picked: string) => {
    const granularity = granularities.find((candidate) => candidate === picked);
    if (granularity) onChange({ ...value, granularity });
  };
  return (
    <Group gap="lg" align="flex-end" wrap="wrap">
      <Stack gap={4}>
        <Text size="sm" fw={500} id={periodLabel}>
          Period
        </Text>
        <SegmentedControl
          aria-labelledby={periodLabel}
          value={value.preset}
          onChange={handlePreset}
          data={periodPresets.map((preset) => ({ value: preset, label: presetRules[preset].label }))}
        />
      </Stack>
      {offered.length > 1 ? (
        <Stack gap={4}>
          <Text size="sm" fw={500} id={granularityLabel}>
            Granularity
          </Text>
          <SegmentedControl
            aria-labelledby={granularityLabel}
            value={value.granularity}
            onChange={handleGranularity}
            data={offered.map((granularity) => ({ value: granularity, label: granularityLabels[granularity] }))}
          />
        </Stack>
      ) : null}
    </Group>
  );
}
