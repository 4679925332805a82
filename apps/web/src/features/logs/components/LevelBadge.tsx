import { Badge } from '@mantine/core';
import type { LogLevel } from '@datalab/contract/api/application-logs';

// Filled with dark shades so the white label keeps a 4.5:1 contrast; the word, not the colour, says the level.
const colors: Record<LogLevel, string> = { debug: 'gray.7', info: 'blue.8', warn: 'orange.9', error: 'red.9' };

export function LevelBadge({ level }: { level: LogLevel }) {
  return (
    <Badge size="sm" variant="filled" color={colors[level]}>
      {level}
    </Badge>
  );
}
