import { Badge } from '@mantine/core';
import type { LogLevel } from '@datalab/contract/api/application-logs';

// Filled with dark shades so the white label keeps at least 4.5:1 contrast (Mantine's darkest orange gives only
// 4.3:1, so warn has its own burnt orange, 6.4:1); the word, not the colour, says the level.
const colors: Record<LogLevel, string> = { debug: 'gray.7', info: 'blue.8', warn: '#a93a0a', error: 'red.9' };

export function LevelBadge({ level }: { level: LogLevel }) {
  return (
    <Badge size="sm" variant="filled" color={colors[level]}>
      {level}
    </Badge>
  );
}
