import { type FormEvent, useState } from 'react';
import { NOTE_MAX } from '../../../lib/admin/contacts.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { explain, fieldErrors } from '../api.ts';
import { FormError } from '../shared/FormActions.tsx';
import { useAddNote } from './page-queries.ts';

/** A note on the contact, with the count of characters left. */
export function NoteForm({ contactId }: { contactId: string }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useAddNote(contactId);
  function add(event: FormEvent) {
    event.preventDefault();
    if (!body.trim()) return setError('Escribe la nota.');
    save.mutate(body, {
      onSuccess: () => {
        setBody('');
        setError(null);
        showToast({ title: 'Nota agregada' });
      },
      onError: (failure) =>
        setError(fieldErrors(failure)?.body ?? explain(failure, 'No se pudo guardar la nota. Intenta de nuevo.')),
    });
  }
  return (
    <form
      onSubmit={add}
      className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10"
      aria-label="Agregar nota"
    >
      <div className="field">
        <label className="field-label" htmlFor="note-body">
          Nota
        </label>
        <textarea
          id="note-body"
          className="field-input min-h-24"
          value={body}
          maxLength={NOTE_MAX}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={error !== null}
          aria-describedby="note-hint"
        />
        <span id="note-hint" className="field-hint">
          {body.length.toLocaleString('es-MX')} de {NOTE_MAX.toLocaleString('es-MX')} caracteres
        </span>
      </div>
      <FormError error={error} />
      <button type="submit" className="btn btn-outline min-h-12 justify-self-start" disabled={save.isPending}>
        {save.isPending ? 'Guardando…' : 'Agregar nota'}
      </button>
    </form>
  );
}
