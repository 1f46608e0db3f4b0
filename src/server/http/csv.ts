/**
 * CSV for spreadsheets: UTF-8 with a byte-order mark (Excel then reads the
 * accents), RFC 4180 quoting, CRLF line ends, and cells that a spreadsheet
 * would run as a formula (= + - @ tab CR at the start) prefixed with '.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export const BOM = '\uFEFF';

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A byte stream of the header and every line the batches yield, pulled as the
 * client reads. When a batch fails (the database went away) the stream errors,
 * so the server aborts the response instead of ending it cleanly: the browser
 * reports a failed download rather than a file that looks complete.
 */
export function csvStream(
  header: readonly string[],
  batches: AsyncIterator<string[][]>,
  onEnd: () => Promise<void>,
  onError: (error: Error) => void = () => {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    await onEnd();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(BOM + csvLine(header)));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          await finish();
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.map(csvLine).join('')));
      } catch (error) {
        onError(error as Error);
        await finish();
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return?.();
      await finish();
    },
  });
}
