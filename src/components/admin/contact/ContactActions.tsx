import { type ContactDetail, whatsappLink } from '../../../lib/admin/contacts.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { formatPhone } from '../../../lib/forms/phone.ts';
import { useRecordAttempt } from './queries.ts';

/**
 * WhatsApp, a call and the phone to copy: the first things an adviser reaches
 * for. Pressing WhatsApp or Llamar records the attempt on the timeline (a small
 * same-origin POST that outlives the page's leaving) as the link opens.
 */
export function ContactActions({ contact, brand }: { contact: ContactDetail; brand: string }) {
  const attempt = useRecordAttempt(contact.id);
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
        onClick={() => attempt.mutate('whatsapp')}
      >
        WhatsApp
      </a>
      <a href={`tel:${contact.phone}`} className="btn btn-outline min-h-12" onClick={() => attempt.mutate('llamada')}>
        Llamar {formatPhone(contact.phone)}
      </a>
      <button type="button" className="btn btn-outline min-h-12" onClick={copy}>
        Copiar teléfono
      </button>
    </section>
  );
}
