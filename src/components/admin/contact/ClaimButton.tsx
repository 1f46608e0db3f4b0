import { useState } from 'react';
import { ALREADY_TAKEN } from '../../../lib/admin/contact-work.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { explain } from '../api.ts';
import { useClaim } from './queries.ts';

/**
 * "Tomar": an unassigned contact becomes the member's (the contact's page and
 * each card of the list place it with one line). Nothing shows once someone
 * follows the contact. When another adviser took it first, the server's 409
 * is said here, beside the button, and the contact is fetched again.
 */
export function ClaimButton({
  contact,
  className = '',
}: {
  contact: { id: string; name: string; assignedTo: { id: string; name: string } | null };
  className?: string;
}) {
  const claim = useClaim(contact.id);
  const [refusal, setRefusal] = useState<string | null>(null);
  if (contact.assignedTo && !refusal) return null;
  return (
    <div className={`grid justify-items-start gap-1 ${className}`}>
      {!contact.assignedTo && (
        <button
          type="button"
          className="btn btn-primary min-h-11 px-4 py-2"
          disabled={claim.isPending}
          aria-label={`Tomar a ${contact.name}`}
          onClick={() => {
            setRefusal(null);
            claim.mutate(undefined, {
              onSuccess: () => showToast({ title: 'Prospecto tomado', description: `${contact.name} ahora es tuyo.` }),
              onError: (error) =>
                setRefusal(
                  error.status === 409 ? ALREADY_TAKEN : explain(error, 'No se pudo tomar. Intenta de nuevo.'),
                ),
            });
          }}
        >
          {claim.isPending ? 'Tomando…' : 'Tomar'}
        </button>
      )}
      {refusal && (
        <p role="alert" className="text-sm font-semibold text-danger-600">
          {refusal}
        </p>
      )}
    </div>
  );
}
