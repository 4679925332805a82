import type { ReactNode } from 'react';
import type { Suggestion } from './SuggestionPicker.tsx';

/**
 * Pickers of users and groups belong to their own features; the screen hands them in, so one
 * feature does not import another (code-style habit 9).
 */
export interface PickerSlotProps {
  label: string;
  selected: Suggestion | null;
  onSelect: (suggestion: Suggestion | null) => void;
  excludedIds: readonly number[];
}

export type PickerSlot = (props: PickerSlotProps) => ReactNode;
