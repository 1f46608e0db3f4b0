/**
 * Bidirectional formatting characters, removed from every text that comes
 * from outside before anyone of ours reads it (issue #38, item 6, decision
 * 0050): lead forms and the panel's inputs (src/lib/forms/fields.ts,
 * src/lib/admin/text.ts), the WhatsApp webhook (every string of a delivery,
 * src/server/whatsapp/payload.ts) and the voice platform's reports
 * (src/server/voice/report.ts). Invisible, they reorder what is shown:
 * `factura\u202Efdp.exe` reads as "facturaexe.pdf".
 *
 * - U+202A-U+202E: embeddings and overrides (LRE, RLE, PDF, LRO, RLO);
 * - U+2066-U+2069: isolates (LRI, RLI, FSI, PDI);
 * - U+200E, U+200F, U+061C: the left-to-right, right-to-left and Arabic
 *   letter marks (they turn neutral characters such as `.` around).
 *
 * Removed, not escaped: a buyer in Mexico writes in Spanish, where none of
 * them carries meaning. Browser-safe.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
