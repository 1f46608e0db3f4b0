import { type DataProblem, formatProblem } from '../data/problems.ts';
import { checkFiles, DATA_FILES, type DataFileName, type DataFiles, LIST_KEYS, unwrapList } from '../data/rules.ts';

/**
 * What the build would say about a data file as the editor is about to save
 * it: the same rules (src/data/rules.ts), run on the edited file beside the
 * other files as they were when the editor was built (`others`), so a
 * contradiction with the catalogue shows before the commit, not in the
 * deploy's log. Only the edited file's problems.
 */
export function editedFileProblems(name: DataFileName, edited: unknown, others: DataFiles): DataProblem[] {
  let data: unknown = edited;
  if (name in LIST_KEYS) {
    const unwrapped = unwrapList(name as keyof typeof LIST_KEYS, edited);
    if ('problem' in unwrapped) return [unwrapped.problem];
    data = unwrapped.list;
  }
  return checkFiles({ ...others, [name]: data }).filter((problem) => problem.file === DATA_FILES[name]);
}

/** The problems as the editor's message shows them: one per line. */
export function problemsMessage(problems: readonly DataProblem[]): string {
  const count = problems.length === 1 ? '1 error' : `${problems.length} errores`;
  return [`No se guardó: ${count}, como lo diría la compilación.`, ...problems.map(formatProblem)].join('\n');
}
