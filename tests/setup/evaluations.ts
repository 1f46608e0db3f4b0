/**
 * How many times this module was evaluated in this worker: tests/setup/fresh-modules.ts counts the files
 * started, and test-database.ts compares the two (a module kept from an earlier file would be one behind).
 */
const worker = globalThis as { moduleEvaluations?: number };
worker.moduleEvaluations = (worker.moduleEvaluations ?? 0) + 1;
export const evaluation = worker.moduleEvaluations;
