import { type ContactDetail, whatsappLink } from '../../../lib/admin/contacts.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { formatPhone } from '../../../lib/forms/phone.ts';

/** WhatsApp, a call and the phone to copy: the first things an adviser reaches for. */
export function ContactActions({ contact, brand }: { contact: ContactDetail; brand: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(contact.phone);
      showToast({ title: 'Teléfono copiado' });
    } catch {
      showToast({ title: 'No se pudo copiar el teléfono', variant: 'destructive' });
    }
  }
  return (
    <section aria-label="Contactar" className="grid grid-cols-1 gap-2 sm:grid-cols-3">
      <a
        href={whatsappLink(contact.phone, contact.name, brand)}
        target="_blank"
        rel="noopener"
        className="btn btn-primary min-h-12"
      >
        WhatsApp
      </a>
      <a href={`tel:${contact.phone}`} className="btn btn-outline min-h-12">
        Llamar {formatPhone(contact.phone)}
      </a>
      <button type="button" className="btn btn-outline min-h-12" onClick={copy}>
        Copiar teléfono
      </button>
    </section>
  );
}
