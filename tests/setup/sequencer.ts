import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take minutes, started first and in this order. Vitest orders
 * by the durations of the last run when it has them, and by file size on a
 * fresh clone (CI), where these two started at 250-270 s of a 518 s run and
 * ended it: its last 100 s had one file running. Started first, the short
 * files fill the other workers around them.
 */
const LONGEST_FIRST = [
  'tests/api/netlify-bundle.test.ts',
  'tests/netlify/site.test.ts',
  'tests/api/sign-in-limits.test.ts',
  'tests/api/notification-faults.test.ts',
  'tests/api/bad-input.property.test.ts',
  'tests/api/process-lifetime.test.ts',
  'tests/api/database-crash.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const index = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return index === -1 ? LONGEST_FIRST.length : index;
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, position) => ({ spec, position }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.position - b.position)
      .map(({ spec }) => spec);
  }
}
