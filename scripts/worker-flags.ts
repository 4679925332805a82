// V8 flags of a download worker process (`npm start -- --role=worker`, scripts/start.ts): a small young generation
// and a heap ceiling, so garbage is collected early instead of piling up to the RSS while a worker writes a
// 1,000,000-row Parquet or XLSX file (bench `downloads` starts its worker with the same flags).
export const WORKER_NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=192'];
