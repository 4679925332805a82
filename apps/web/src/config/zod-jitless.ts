import { z } from 'zod';

// The CSP has no 'unsafe-eval'. Zod probes `new Function` when an object schema is *defined*,
// and a strict CSP reports that probe as a violation even though zod swallows the error — so
// this module is imported first by main.tsx, before any contract schema exists.
z.config({ jitless: true });
