import { Switch } from '@mantine/core';
import { setDeveloperMode, useDeveloperMode } from '../../../lib/developer-mode.ts';

/** Reveals Data Assets and Playground, raw error details, and lifts the mobile restriction. */
export function DeveloperModeSwitch() {
  const isDeveloperMode = useDeveloperMode();
  return (
    <Switch
      label="Developer mode"
      size="sm"
      checked={isDeveloperMode}
      onChange={(event) => setDeveloperMode(event.currentTarget.checked)}
      styles={{ label: { whiteSpace: 'nowrap' } }}
    />
  );
}
