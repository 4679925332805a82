import { Code, Stack, Text } from '@mantine/core';
import { useDeveloperMode } from '../../lib/developer-mode.ts';

/** Raw error details, visible only in developer mode (product §2). */
export function DeveloperDetails({ details }: { details: string | null | undefined }) {
  const isDeveloperMode = useDeveloperMode();
  if (!isDeveloperMode || !details) return null;
  return (
    <Stack gap={4} w="100%" maw={720} ta="left">
      <Text size="sm" fw={600}>
        Details
      </Text>
      <Code block data-testid="developer-details">
        {details}
      </Code>
    </Stack>
  );
}
