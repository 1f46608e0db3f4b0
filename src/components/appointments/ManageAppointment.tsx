import { useEffect, useRef, useState } from 'react';
import type { ManagedAppointment } from '../../lib/appointments/manage.ts';
import { MANAGE_MESSAGES, MANAGE_WORDS as W } from '../../lib/appointments/words.ts';
import { formatMxn as pesos } from '../../lib/money.ts';
import { SlotsView, useSlots } from './slots.tsx';
import { momentOf } from './time.ts';

interface Props {
  /** The site's WhatsApp chat: where a refused change goes. */
  chatLink: string;
}

type View =
  | { state: 'loading' }
  | { state: 'refused'; message: string; retry?: boolean }
  | { state: 'ready'; appointment: ManagedAppointment };

type Answer = Partial<ManagedAppointment> & { error?: string };

/** The link's token, from the address (a move puts the fresh one there). */
const currentToken = () => new URLSearchParams(window.location.search).get('t') ?? '';

/** GET or POST /api/appointments/manage: its status (0 without an answer) and body. */
async function call(body?: object): Promise<{ status: number; answer: Answer }> {
  const token = currentToken();
  try {
    const response = body
      ? await fetch('/api/appointments/manage', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ t: token, ...body }),
        })
      : await fetch(`/api/appointments/manage?t=${encodeURIComponent(token)}`);
    return { status: response.status, answer: await response.json().catch(() => ({})) };
  } catch {
    return { status: 0, answer: {} };
  }
}

/** A refusal that ends what the page can do (the link or the appointment), as opposed to a slot taken. */
const FINAL = new Set([401, 410, 422]);

/**
 * The buyer's page of an appointment, /cita?t=<token> (issue #40, decision
 * 0059): reads it, then cancels it (confirmed in a native dialog) or moves
 * it to another free slot of the same kind and place (the shared
 * SlotPicker), until the kind's cutoff. A move takes the fresh token the
 * answer brings into the address, so a reload keeps working.
 */
export default function ManageAppointment({ chatLink }: Props) {
  const [view, setView] = useState<View>({ state: 'loading' });
  const [moving, setMoving] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The notice of a change, with its count: the same words after a second move are announced again.
  const [notice, setNoticeOf] = useState({ text: '', count: 0 });
  const setNotice = (text: string) => setNoticeOf((before) => ({ text, count: before.count + 1 }));
  const [problem, setProblem] = useState('');
  const confirm = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const appointment = view.state === 'ready' ? view.appointment : undefined;
  // Where it may move: its own time counts as free (the kind's horizon bounds the answer).
  const [slots, reload] = useSlots(
    moving && appointment ? { id: appointment.kind, horizonDays: 61 } : undefined,
    appointment ? { id: appointment.place, timeZone: appointment.timeZone } : undefined,
    moving ? currentToken() : undefined,
  );

  async function load() {
    setView({ state: 'loading' });
    const { status, answer } = await call();
    if (status === 200) setView({ state: 'ready', appointment: answer as ManagedAppointment });
    else
      setView({
        state: 'refused',
        message: answer.error ?? MANAGE_MESSAGES.unavailable,
        retry: !FINAL.has(status),
      });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page opens
  useEffect(() => {
    void load();
  }, []);

  useEffect(() => {
    if (notice.text) heading.current?.focus();
  }, [notice]);
  // Opening the move form or leaving it, the focus goes where the buyer reads next (the pressed button is gone).
  const moveHeading = useRef<HTMLHeadingElement>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (moving) moveHeading.current?.focus();
    else if (opened.current) heading.current?.focus();
    opened.current = moving;
  }, [moving]);

  async function change(body: { action: 'cancelar' } | { action: 'reprogramar'; start: string }) {
    setBusy(true);
    setProblem('');
    const { status, answer } = await call(body);
    setBusy(false);
    confirm.current?.close();
    if (status === 200) {
      const { token, ...changed } = answer as ManagedAppointment;
      if (token) {
        const url = new URL(window.location.href);
        url.searchParams.set('t', token);
        history.replaceState(null, '', url);
      }
      setView({ state: 'ready', appointment: changed });
      setMoving(false);
      setSelected(null);
      // Its own time chosen again: nothing changed, and nothing was sent.
      const unchanged =
        body.action === 'reprogramar' && Date.parse(changed.start) === Date.parse(appointment?.start ?? '');
      setNotice(body.action === 'cancelar' ? W.cancelled : unchanged ? W.unchanged : W.moved);
      return;
    }
    if (status === 409) {
      setSelected(null);
      reload();
    }
    if (FINAL.has(status)) {
      setView({ state: 'refused', message: answer.error ?? MANAGE_MESSAGES.unavailable });
      return;
    }
    setProblem(answer.error ?? MANAGE_MESSAGES.unavailable);
  }

  const ending = (
    <div className="flex flex-col gap-3 sm:flex-row">
      <a href={chatLink} target="_blank" rel="noopener" className="btn btn-primary">
        {W.whatsapp}
      </a>
      <a href="/" className="btn btn-outline">
        {W.home}
      </a>
    </div>
  );

  if (view.state === 'loading')
    return (
      <p role="status" className="rounded-2xl bg-white p-5 text-brand-800">
        {W.loading}
      </p>
    );
  if (view.state === 'refused')
    return (
      <div className="grid gap-4 rounded-2xl bg-white p-5 sm:p-8">
        <p role="alert" className="text-lg text-brand-900">
          {view.message}
        </p>
        {view.retry && (
          <button type="button" className="btn btn-outline justify-self-start" onClick={() => void load()}>
            {W.retry}
          </button>
        )}
        {ending}
      </div>
    );

  const shown = view.appointment;
  const holding = shown.status === 'por_pagar' || shown.status === 'confirmada';
  return (
    <div className="grid gap-6">
      <section
        className="grid gap-4 rounded-2xl bg-white p-5 ring-1 ring-brand-900/10 sm:p-8"
        aria-labelledby="cita-kind"
      >
        <h2 id="cita-kind" ref={heading} tabIndex={-1} className="text-2xl font-bold outline-none">
          {shown.kindName}
        </h2>
        {notice.text && (
          <p key={notice.count} role="status" className="rounded-xl bg-brand-50 p-3 font-semibold text-brand-900">
            {notice.text}
          </p>
        )}
        <dl className="grid gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-sm text-brand-700">{W.when}</dt>
            <dd className="font-semibold first-letter:uppercase">{momentOf(shown.start, shown.timeZone)}</dd>
          </div>
          <div>
            <dt className="text-sm text-brand-700">{W.where}</dt>
            <dd className="font-semibold">{shown.placeName}</dd>
          </div>
          <div>
            <dt className="text-sm text-brand-700">{W.state}</dt>
            <dd>
              <span className="inline-block rounded-full bg-brand-50 px-3 py-1 text-sm font-bold text-brand-900">
                {W.statuses[shown.status] ?? shown.status}
              </span>
            </dd>
          </div>
        </dl>
        {shown.status === 'por_pagar' && shown.payUrl && !moving && (
          <div className="grid gap-3 rounded-xl bg-brand-50 p-4">
            <p className="font-semibold text-brand-900">{W.payFirst}</p>
            <a className="btn btn-accent justify-self-start" href={shown.payUrl}>
              {W.pay}
            </a>
          </div>
        )}
        {shown.canChange && !moving && (
          <>
            <p className="text-brand-800">{W.changeUntil(momentOf(shown.changeUntil, shown.timeZone))}</p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <button type="button" className="btn btn-primary" onClick={() => setMoving(true)}>
                {W.reschedule}
              </button>
              <button type="button" className="btn btn-outline" onClick={() => confirm.current?.showModal()}>
                {W.cancel}
              </button>
            </div>
          </>
        )}
        {!shown.canChange && holding && <p className="text-brand-800">{MANAGE_MESSAGES.cutoff}</p>}
        {!shown.canChange && ending}
        {problem && !moving && (
          <p role="alert" className="field-error">
            {problem}
          </p>
        )}
      </section>

      {moving && (
        <form
          className="grid gap-5 rounded-2xl bg-white p-5 ring-1 ring-brand-900/10 sm:p-8"
          aria-labelledby="cita-move"
          onSubmit={(event) => {
            event.preventDefault();
            if (!selected) setProblem(MANAGE_MESSAGES.invalid);
            else void change({ action: 'reprogramar', start: selected });
          }}
        >
          <h2 id="cita-move" ref={moveHeading} tabIndex={-1} className="text-xl font-bold">
            {W.moveTitle}
          </h2>
          {shown.paid && !shown.paid.refundUntil && (
            <p className="text-brand-800">{W.moveForfeits(pesos(shown.paid.amountMxn))}</p>
          )}
          <SlotsView slots={slots} reload={reload} selected={selected} onSelect={setSelected} idPrefix="cita-" />
          {problem && (
            <p role="alert" className="field-error">
              {problem}
            </p>
          )}
          <div className="flex flex-col gap-3 sm:flex-row">
            <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>
              {busy ? W.moving : W.move}
            </button>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => {
                setMoving(false);
                setProblem('');
              }}
            >
              {W.back}
            </button>
          </div>
        </form>
      )}

      <dialog
        ref={confirm}
        aria-labelledby="cita-cancel-title"
        aria-describedby="cita-cancel-text"
        className="m-auto w-[min(28rem,calc(100vw-1.5rem))] rounded-3xl bg-sand-50 p-6 text-brand-900 shadow-2xl backdrop:bg-brand-900/60 sm:p-8"
      >
        <h2 id="cita-cancel-title" className="text-2xl font-bold">
          {W.confirmCancelTitle}
        </h2>
        <p id="cita-cancel-text" className="mt-2 text-brand-800">
          {W.confirmCancelText}
          {shown.paid &&
            ` ${
              shown.paid.refundUntil
                ? W.refunded(pesos(shown.paid.amountMxn), momentOf(shown.paid.refundUntil, shown.timeZone))
                : W.notRefunded(pesos(shown.paid.amountMxn))
            }`}
        </p>
        {/* The safe answer first: the open dialog gives it the focus, and Enter keeps the appointment. */}
        <form method="dialog" className="mt-6 flex flex-col gap-3 sm:flex-row">
          <button type="submit" className="btn btn-outline">
            {W.keep}
          </button>
          <button
            type="button"
            className="btn btn-accent"
            disabled={busy}
            aria-busy={busy || undefined}
            onClick={() => void change({ action: 'cancelar' })}
          >
            {busy ? W.cancelling : W.confirmCancel}
          </button>
        </form>
      </dialog>
    </div>
  );
}
