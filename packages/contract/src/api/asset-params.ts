import { z } from 'zod';
import { messages } from '../messages.ts';

// Path parameters shared by the data asset calls (data-sources.ts, asset-calls.ts).

export const idParam = z.string().regex(/^\d{1,15}$/, 'Invalid option');
/** An asset by numeric id or uid. */
export const assetParam = z.string().trim().min(1, messages.noUidProvided).max(100);
export const assetParams = z.object({ id: assetParam });
