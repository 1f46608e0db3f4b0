import { type FormEvent, useState } from 'react';
import { showToast } from '../../../lib/client/toast.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import type { QuickReply } from '../../../lib/whatsapp/contract.ts';
import { quickReplySchema } from '../../../lib/whatsapp/quick-reply.ts';
import { QUICK_REPLY_VARIABLES } from '../../../lib/whatsapp/words.ts';
import { explain, fieldErrors } from '../api.ts';
import { FormActions } from '../shared/FormActions.tsx';
import { useDeleteQuickReply, useQuickReplies, useSaveQuickReply } from './queries.ts';

/** "Respuestas rápidas" (administrators): the saved answers every member inserts in the composer. */
export function QuickRepliesEditor() {
  const list = useQuickReplies('');
  const remove = useDeleteQuickReply();
  const [editing, setEditing] = useState<QuickReply | null>(null);
  const replies = list.data?.quickReplies ?? [];
  return (
    <details className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
      <summary className="flex min-h-11 cursor-pointer items-center font-bold">
        Respuestas rápidas ({replies.length})
      </summary>
      <div className="mt-3 grid gap-4">
        <p className="text-sm text-brand-800">
          Usa {'{nombre}'} para {QUICK_REPLY_VARIABLES.nombre} y {'{asesor}'} para el nombre de quien la envía.
        </p>
        {list.isError && <p role="alert">{explain(list.error, 'No se pudieron cargar las respuestas rápidas.')}</p>}
        <ul className="grid gap-2" aria-label="Respuestas rápidas guardadas">
          {replies.map((reply) => (
            <li key={reply.id} className="grid gap-2 rounded-xl p-3 ring-1 ring-brand-900/10">
              <p className="font-semibold wrap-anywhere">{reply.title}</p>
              <p className="text-sm whitespace-pre-wrap wrap-anywhere">{reply.body}</p>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn btn-outline min-h-11 px-4 py-2 text-sm"
                  onClick={() => setEditing(reply)}
                >
                  Editar <span className="sr-only">{reply.title}</span>
                </button>
                <button
                  type="button"
                  className="min-h-11 rounded-full px-4 text-sm font-semibold text-danger-600 hover:bg-danger-600/10"
                  onClick={() => {
                    if (window.confirm(`¿Eliminar la respuesta «${reply.title}»?`))
                      remove.mutate(reply.id, { onSuccess: () => showToast({ title: 'Respuesta eliminada' }) });
                  }}
                >
                  Eliminar <span className="sr-only">{reply.title}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
        <QuickReplyForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
      </div>
    </details>
  );
}

function QuickReplyForm({ editing, onDone }: { editing: QuickReply | null; onDone(): void }) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveQuickReply();
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = quickReplySchema.safeParse({ title, body });
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    save.mutate(
      { id: editing?.id ?? null, input: parsed.data },
      {
        onSuccess: () => {
          showToast({ title: editing ? 'Respuesta actualizada' : 'Respuesta guardada' });
          setTitle('');
          setBody('');
          setErrors({});
          onDone();
        },
        onError: (failure) =>
          setErrors({
            ...(fieldErrors(failure) ?? {}),
            form: explain(failure, 'No se pudo guardar. Intenta de nuevo.'),
          }),
      },
    );
  }
  return (
    <form
      onSubmit={submit}
      className="grid gap-3"
      aria-label={editing ? 'Editar respuesta rápida' : 'Nueva respuesta rápida'}
    >
      <label className="field">
        <span className="field-label">Título</span>
        <input
          className="field-input"
          value={title}
          maxLength={60}
          onChange={(event) => setTitle(event.target.value)}
          aria-invalid={Boolean(errors.title)}
        />
        {errors.title && <span className="field-error">{errors.title}</span>}
      </label>
      <label className="field">
        <span className="field-label">Respuesta</span>
        <textarea
          className="field-input min-h-24"
          value={body}
          maxLength={1000}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={Boolean(errors.body)}
        />
        {errors.body && <span className="field-error">{errors.body}</span>}
      </label>
      <FormActions
        align="start"
        error={errors.form}
        submit={editing ? 'Guardar cambios' : 'Agregar respuesta'}
        disabled={save.isPending}
        onCancel={editing ? onDone : undefined}
      />
    </form>
  );
}
