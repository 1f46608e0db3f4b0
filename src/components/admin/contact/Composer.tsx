import { type FormEvent, useRef, useState } from 'react';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import type { ContactDetail } from '../../../lib/admin/contacts.ts';
import type { QuickReply, SlotOption } from '../../../lib/whatsapp/contract.ts';
import type { TemplateName } from '../../../lib/whatsapp/templates.ts';
import { MESSAGE_TEXT_MAX, quickReplyValues, renderQuickReply } from '../../../lib/whatsapp/words.ts';
import { explain } from '../api.ts';
import { useQuickReplies, useSendMessage, useWhatsappState } from '../conversations/queries.ts';
import { usePanelUser } from '../session.ts';
import { FormError } from '../shared/FormActions.tsx';
import { SelectBox } from '../shared/ui.tsx';

const newKey = () => crypto.randomUUID();

/**
 * The composer (issue #27), stuck to the bottom of the screen on a phone:
 * free text inside the 24-hour window (with the quick replies), outside it
 * only an approved template filled in for the contact, and the reason why in
 * Spanish; nothing automated to someone who opted out.
 */
export function Composer({ contact }: { contact: ContactDetail }) {
  const state = useWhatsappState(contact.id);
  const send = useSendMessage(contact.id);
  const [error, setError] = useState<string | null>(null);
  // One key per message pressed: a second press of the same draft is the same message.
  const key = useRef(newKey());

  function deliver(input: Parameters<typeof send.mutate>[0], done: () => void) {
    setError(null);
    send.mutate(input, {
      onSuccess: () => {
        key.current = newKey();
        done();
      },
      onError: (failure) => {
        setError(explain(failure, 'No se pudo enviar el mensaje. Intenta de nuevo.'));
        void state.refetch();
      },
    });
  }

  const box = 'grid gap-2 rounded-2xl bg-white p-3 ring-1 ring-brand-900/10';
  const shell = `sticky bottom-0 z-10 shadow-[0_-4px_12px_rgb(0_0_0/0.08)] ${box}`;
  if (state.isError) {
    // Nothing to write with: said once where the composer would be, not kept floating over the history.
    return (
      <div className={box} role="alert">
        {explain(state.error, 'No se pudo saber si se puede escribir a este prospecto.')}
      </div>
    );
  }
  if (!state.data) {
    return (
      <p className={shell} role="status">
        Preparando el mensaje…
      </p>
    );
  }
  const whatsapp = state.data;
  // Nothing to write with (not configured, opted out of templates with the window closed): the reason is said
  // once where the composer would be, not kept floating over the history.
  const writable = whatsapp.allowed.text || (whatsapp.allowed.templates && whatsapp.templates.length > 0);
  return (
    <div className={writable ? shell : box} data-testid="composer">
      {whatsapp.optedOutAt && (
        <p className="text-sm font-semibold text-danger-600">
          Se dio de baja de los mensajes automáticos el {formatShortDate(whatsapp.optedOutAt)}: no se le envían
          plantillas.
        </p>
      )}
      {whatsapp.reason && (
        <p className="text-sm text-brand-800" data-testid="composer-reason">
          {whatsapp.reason}
        </p>
      )}
      {whatsapp.allowed.text ? (
        <>
          {whatsapp.slotOptions && whatsapp.slotOptions.length > 0 && (
            <SlotsForm
              options={whatsapp.slotOptions}
              busy={send.isPending}
              onSend={(option, done) =>
                deliver(
                  {
                    input: {
                      kind: 'slots',
                      appointment: option.appointment,
                      place: option.place,
                      idempotencyKey: key.current,
                    },
                    preview: `Horarios disponibles: ${option.label}`,
                  },
                  done,
                )
              }
            />
          )}
          <TextForm
            contact={contact}
            busy={send.isPending}
            onSend={(input, done) => deliver(input, done)}
            keyOf={() => key.current}
          />
        </>
      ) : whatsapp.allowed.templates && whatsapp.templates.length > 0 ? (
        <TemplateForm
          templates={whatsapp.templates}
          busy={send.isPending}
          onSend={(template, preview, done) =>
            deliver({ input: { kind: 'template', template, idempotencyKey: key.current }, preview }, done)
          }
        />
      ) : null}
      <FormError error={error} />
    </div>
  );
}

function TextForm({
  contact,
  busy,
  onSend,
  keyOf,
}: {
  contact: ContactDetail;
  busy: boolean;
  onSend(input: Parameters<ReturnType<typeof useSendMessage>['mutate']>[0], done: () => void): void;
  keyOf(): string;
}) {
  const [text, setText] = useState('');
  const [quickReplyId, setQuickReplyId] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const body = text.trim();
    if (!body) return;
    onSend(
      {
        input: { kind: 'text', text: body, idempotencyKey: keyOf(), ...(quickReplyId ? { quickReplyId } : {}) },
        preview: body,
      },
      () => {
        setText('');
        setQuickReplyId(null);
      },
    );
  }
  return (
    <form onSubmit={submit} className="grid gap-2" aria-label="Escribir por WhatsApp">
      <QuickReplies
        contact={contact}
        onPick={(reply, filled) => {
          setText(filled);
          setQuickReplyId(reply.id);
        }}
      />
      <div className="flex items-end gap-2">
        <label className="min-w-0 flex-1">
          <span className="sr-only">Mensaje</span>
          <textarea
            className="field-input max-h-40 min-h-11 w-full resize-none [field-sizing:content]"
            value={text}
            rows={1}
            maxLength={MESSAGE_TEXT_MAX}
            placeholder="Escribe un mensaje"
            onChange={(event) => setText(event.target.value)}
            enterKeyHint="send"
          />
        </label>
        <button type="submit" className="btn btn-primary min-h-11 shrink-0 px-4 py-2" disabled={busy || !text.trim()}>
          Enviar
        </button>
      </div>
    </form>
  );
}

/** "Respuestas rápidas": a menu of the saved answers, filled in with the contact's and the member's first names. */
function QuickReplies({ contact, onPick }: { contact: ContactDetail; onPick(reply: QuickReply, text: string): void }) {
  const replies = useQuickReplies(contact.id);
  const member = usePanelUser();
  const menu = useRef<HTMLDetailsElement>(null);
  const list = replies.data?.quickReplies ?? [];
  if (list.length === 0) return null;
  return (
    <details ref={menu} className="relative">
      <summary className="inline-flex min-h-11 cursor-pointer items-center rounded-full px-4 text-sm font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5">
        Respuestas rápidas
      </summary>
      <ul className="absolute bottom-full left-0 z-20 mb-2 grid max-h-64 w-[min(20rem,85vw)] gap-1 overflow-y-auto rounded-xl bg-white p-2 shadow-lg ring-1 ring-brand-900/15">
        {list.map((reply) => {
          const filled =
            reply.text ??
            renderQuickReply(reply.body, quickReplyValues(contact.name, member?.name ?? member?.email ?? ''));
          return (
            <li key={reply.id}>
              <button
                type="button"
                className="grid min-h-11 w-full gap-0.5 rounded-lg px-3 py-2 text-left hover:bg-brand-900/5"
                onClick={() => {
                  onPick(reply, filled);
                  if (menu.current) menu.current.open = false;
                }}
              >
                <span className="font-semibold wrap-anywhere">{reply.title}</span>
                <span className="line-clamp-2 text-sm text-brand-800 wrap-anywhere">{filled}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/**
 * "Horarios disponibles" (issue #40, decision 0063): the next free slots of
 * a kind of appointment at a place, sent as a WhatsApp list; the buyer's
 * choice books it. Only inside the window (the state offers no option outside it).
 */
function SlotsForm({
  options,
  busy,
  onSend,
}: {
  options: SlotOption[];
  busy: boolean;
  onSend(option: SlotOption, done: () => void): void;
}) {
  const menu = useRef<HTMLDetailsElement>(null);
  const [chosen, setChosen] = useState<string>(options.length === 1 ? '0' : '');
  const option = chosen === '' ? undefined : options[Number(chosen)];
  return (
    <details ref={menu}>
      <summary className="inline-flex min-h-11 cursor-pointer items-center rounded-full px-4 text-sm font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5">
        Horarios disponibles
      </summary>
      <form
        className="mt-2 grid gap-2 rounded-xl bg-brand-50 p-3"
        aria-label="Enviar horarios disponibles por WhatsApp"
        onSubmit={(event) => {
          event.preventDefault();
          if (!option) return;
          onSend(option, () => {
            setChosen(options.length === 1 ? '0' : '');
            if (menu.current) menu.current.open = false;
          });
        }}
      >
        <p className="text-sm text-brand-800">
          Le llega una lista con los próximos horarios libres; el horario que elija queda agendado y recibe la
          confirmación.
        </p>
        <SelectBox<string> label="Tipo de cita y lugar" value={chosen} onChange={setChosen}>
          <option value="">Elige el tipo de cita</option>
          {options.map((each, index) => (
            <option key={`${each.appointment}:${each.place}`} value={String(index)}>
              {each.label}
            </option>
          ))}
        </SelectBox>
        <button
          type="submit"
          className="btn btn-primary min-h-11 justify-self-start px-4 py-2"
          disabled={busy || !option}
        >
          Enviar horarios
        </button>
      </form>
    </details>
  );
}

function TemplateForm({
  templates,
  busy,
  onSend,
}: {
  templates: { name: TemplateName; label: string; preview: string }[];
  busy: boolean;
  onSend(template: TemplateName, preview: string, done: () => void): void;
}) {
  const [chosen, setChosen] = useState<TemplateName | ''>('');
  const template = templates.find((each) => each.name === chosen);
  return (
    <form
      className="grid gap-2"
      aria-label="Enviar una plantilla de WhatsApp"
      onSubmit={(event) => {
        event.preventDefault();
        if (template) onSend(template.name, template.preview, () => setChosen(''));
      }}
    >
      <SelectBox<TemplateName> label="Plantilla" value={chosen} onChange={setChosen}>
        <option value="">Elige una plantilla</option>
        {templates.map((each) => (
          <option key={each.name} value={each.name}>
            {each.label}
          </option>
        ))}
      </SelectBox>
      {template && (
        <p className="rounded-xl bg-brand-50 p-3 text-sm whitespace-pre-wrap wrap-anywhere">{template.preview}</p>
      )}
      <button
        type="submit"
        className="btn btn-primary min-h-11 justify-self-start px-4 py-2"
        disabled={busy || !template}
      >
        Enviar plantilla
      </button>
    </form>
  );
}
