/**
 * What a member's notice about a contact (a reminder, an inbound WhatsApp
 * message) says of them: their name and phone and their page in the panel,
 * sent to the member's address (`email`).
 */
export function contactNotice(row: { name: string; phone: string; email: string }, contactId: string, site: string) {
  return { contactName: row.name, phone: row.phone, url: `${site}/admin/prospecto?id=${contactId}`, to: row.email };
}
