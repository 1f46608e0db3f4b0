import { useEffect, useRef, useState } from 'react';
import { clockName } from '../../lib/appointments/clock.ts';
import { formatMxn, formatPesos } from '../../lib/money.ts';
import { PAYMENT_MESSAGES, type PaymentPageAnswer, PAYMENT_PAGE_WORDS as W } from '../../lib/payments/words.ts';

interface Props {
  /** The site's WhatsApp chat: where a refused payment goes. */
  chatLink: string;
  /** Where another appointment of a kind for buyers, or for partners, is booked. */
  bookLinks: Record<PaymentPageAnswer['audience'], string>;
  /** How often, and how many times, it asks while a payment is being confirmed (POLL_MS, POLLS). */
  polling?: { everyMs: number; times: number };
}

type View =
  | { state: 'loading' }
  | { state: 'refused'; message: string; retry: boolean }
  | { state: 'ready'; answer: PaymentPageAnswer };

const token = () => new URLSearchParams(window.location.search).get('t') ?? '';
/** Back from Stripe's page: the payment may still be on its way (its webhook). */
const backFromStripe = () => new URLSearchParams(window.location.search).get('estado') === 'listo';

/**
 * "miércoles 2 de diciembre, 10:00 (hora de Mérida)" on `timeZone`'s clock: the hold on the place's, as the
 * appointment's own time; a voucher's or transfer's deadline on Mexico City's, where OXXO and the banks are.
 */
const moment = (iso: string, timeZone = 'America/Mexico_City') =>
  `${new Intl.DateTimeFormat('es-MX', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso))} (hora de ${clockName(timeZone)})`;

/** How often, and how many times, the page asks again while a payment is being confirmed. */
const POLL_MS = 3000;
const POLLS = 20;

/**
 * The page /pagar?t=<token> (issue #41): the appointment and its payment as
 * our server knows it (the webhook's, never the browser's word), the button
 * that opens Stripe's hosted checkout, and after it what happens next: paid,
 * or the OXXO reference / SPEI CLABE and its deadline. Back from Stripe, it
 * asks again every few seconds (a bounded number of times) until the
 * payment is no longer open.
 */
export default function PayAppointment({ chatLink, bookLinks, polling = { everyMs: POLL_MS, times: POLLS } }: Props) {
  const [view, setView] = useState<View>({ state: 'loading' });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const polls = useRef(0);

  async function load() {
    let status = 0;
    let body: Partial<PaymentPageAnswer> & { error?: string } = {};
    try {
      const response = await fetch(`/api/pagos/estado?t=${encodeURIComponent(token())}`);
      status = response.status;
      body = await response.json().catch(() => ({}));
    } catch {
      // No answer: offered to try again below.
    }
    if (status === 200) setView({ state: 'ready', answer: body as PaymentPageAnswer });
    else
      setView({
        state: 'refused',
        message: body.error ?? PAYMENT_MESSAGES.unavailable,
        retry: status === 0 || status >= 500,
      });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page opens
  useEffect(() => {
    void load();
    // Back from Stripe's page with the browser's back button, this page comes from its cache as it was left
    // ("Abriendo el pago…", the button off): ready again, and asked anew.
    const restored = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      setBusy(false);
      void load();
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  const confirming =
    view.state === 'ready' &&
    backFromStripe() &&
    (view.answer.payment === null || view.answer.payment.status === 'abierto');
  // Asked as often as it asks without an answer: say so, with a way to ask again and to reach us.
  const waitedLong = confirming && polls.current >= polling.times;
  useEffect(() => {
    if (!confirming || polls.current >= polling.times) return;
    const timer = setTimeout(() => {
      polls.current += 1;
      void load();
    }, polling.everyMs);
    return () => clearTimeout(timer);
  });

  async function pay() {
    setBusy(true);
    setProblem('');
    try {
      const response = await fetch('/api/pagos/checkout', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ t: token() }),
      });
      const body = (await response.json().catch(() => ({}))) as { url?: string; error?: string };
      if (response.ok && body.url) {
        window.location.assign(body.url);
        return;
      }
      setProblem(body.error ?? PAYMENT_MESSAGES.provider);
      if (response.status === 409 || response.status === 410) void load();
    } catch {
      setProblem(PAYMENT_MESSAGES.provider);
    }
    setBusy(false);
  }

  if (view.state === 'loading')
    return (
      <p role="status" className="text-brand-800">
        {W.loading}
      </p>
    );
  if (view.state === 'refused')
    return (
      <div className="grid gap-4">
        <p role="alert" className="field-error">
          {view.message}
        </p>
        {view.retry ? (
          <button type="button" className="btn btn-outline justify-self-start" onClick={() => void load()}>
            Intentar de nuevo
          </button>
        ) : (
          <a className="btn btn-outline justify-self-start" href={chatLink}>
            {W.whatsapp}
          </a>
        )}
      </div>
    );

  const { answer } = view;
  const payment = answer.payment;
  return (
    <section
      className="grid gap-5 rounded-2xl bg-white p-5 ring-1 ring-brand-900/10 sm:p-8"
      aria-labelledby="pago-cita"
    >
      <h2 id="pago-cita" className="text-2xl font-bold">
        {answer.kind}
      </h2>
      <dl className="grid gap-3 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-brand-700">Cuándo</dt>
          <dd className="font-semibold first-letter:uppercase">{answer.when}</dd>
        </div>
        <div>
          <dt className="text-sm text-brand-700">Dónde</dt>
          <dd className="font-semibold">{answer.place}</dd>
        </div>
        <div>
          <dt className="text-sm text-brand-700">Precio</dt>
          <dd className="font-semibold">{formatMxn(answer.priceMxn)}</dd>
        </div>
      </dl>
      <div aria-live="polite" className="grid gap-4">
        {confirming && !waitedLong && (
          <p className="rounded-xl bg-brand-50 p-3 font-semibold text-brand-900">{W.checking}</p>
        )}
        {waitedLong && (
          <div className="grid gap-3 rounded-xl bg-brand-50 p-4">
            <p className="font-semibold text-brand-900">{W.checkingLong}</p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => {
                  polls.current = 0;
                  void load();
                }}
              >
                {W.checkAgain}
              </button>
              <a className="btn btn-outline" href={chatLink}>
                {W.whatsapp}
              </a>
            </div>
          </div>
        )}
        {!confirming && <Outcome answer={answer} />}
      </div>
      {answer.notPayable === null && !confirming && (
        <div className="grid gap-3">
          {answer.holdUntil && (
            <p className="text-brand-800">{W.heldUntil(moment(answer.holdUntil, answer.timeZone))}</p>
          )}
          <p className="text-brand-800">{W.methods}</p>
          <button
            type="button"
            className="btn btn-accent justify-self-start"
            disabled={busy}
            aria-busy={busy || undefined}
            onClick={() => void pay()}
          >
            {busy ? W.paying : W.pay(formatPesos(answer.priceMxn))}
          </button>
          <p className="text-sm text-brand-700">{W.secure}</p>
        </div>
      )}
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
      {(answer.notPayable === 'expired' || answer.notPayable === 'cancelled' || payment?.status === 'vencido') && (
        <div className="flex flex-col gap-3 sm:flex-row">
          <a className="btn btn-primary" href={bookLinks[answer.audience]}>
            {W.again}
          </a>
          <a className="btn btn-outline" href={chatLink}>
            {W.whatsapp}
          </a>
        </div>
      )}
    </section>
  );
}

/** What the payment's state means for the buyer, with what they need to pay a voucher or a transfer. */
function Outcome({ answer }: { answer: PaymentPageAnswer }) {
  const payment = answer.payment;
  if (answer.notPayable === 'paid' && payment?.status !== 'reembolsado') {
    // A paid appointment cancelled (or paid after it was): the money is on record, the appointment is not held.
    const late = answer.appointmentStatus === 'cancelada';
    return (
      <div className="grid gap-1 rounded-xl bg-brand-50 p-4">
        <p className="text-lg font-bold text-brand-900">{late ? W.paidCancelledTitle : W.paidTitle}</p>
        <p className="text-brand-900">{late ? W.paidCancelledText : W.paidText}</p>
      </div>
    );
  }
  if (payment?.status === 'reembolsado')
    return (
      <div className="grid gap-1 rounded-xl bg-brand-50 p-4">
        <p className="text-lg font-bold text-brand-900">{W.refundedTitle}</p>
        <p className="text-brand-900">{W.refundedText}</p>
      </div>
    );
  if (payment?.status === 'pendiente' && answer.notPayable === 'pending') {
    const deadline = payment.payBy ? moment(payment.payBy) : '';
    const voucher = payment.voucher ?? {};
    const partial = typeof voucher.receivedMxn === 'number' && typeof voucher.remainingMxn === 'number';
    const text =
      payment.method === 'oxxo'
        ? W.oxxoText(deadline)
        : payment.method === 'spei'
          ? partial
            ? W.partialText(formatPesos(voucher.receivedMxn ?? 0), formatPesos(voucher.remainingMxn ?? 0), deadline)
            : W.speiText(deadline)
          : W.pendingText(deadline);
    const facts: { label: string; value: string | undefined }[] = [
      { label: W.reference, value: voucher.number ?? voucher.reference },
      { label: W.clabe, value: voucher.clabe },
      { label: W.bank, value: voucher.bank },
      { label: W.holder, value: voucher.holder },
    ];
    const rows = facts.filter(
      (row): row is { label: string; value: string } => typeof row.value === 'string' && row.value !== '',
    );
    return (
      <div className="grid gap-3 rounded-xl bg-brand-50 p-4">
        <p className="text-lg font-bold text-brand-900">{W.pendingTitle}</p>
        <p className="text-brand-900">{text}</p>
        {rows.length > 0 && (
          <dl className="grid gap-2">
            {rows.map((row) => (
              <div key={row.label}>
                <dt className="text-sm text-brand-700">{row.label}</dt>
                <dd className="break-all font-mono text-lg font-bold">{row.value}</dd>
              </div>
            ))}
          </dl>
        )}
        {voucher.url?.startsWith('https://') && (
          <a className="btn btn-outline justify-self-start" href={voucher.url} rel="noopener noreferrer">
            {W.voucher}
          </a>
        )}
      </div>
    );
  }
  if (payment?.status === 'vencido' || answer.notPayable === 'expired')
    return (
      <div className="grid gap-1 rounded-xl bg-brand-50 p-4">
        <p className="text-lg font-bold text-brand-900">{W.expiredTitle}</p>
        <p className="text-brand-900">{PAYMENT_MESSAGES.expired}</p>
      </div>
    );
  if (answer.notPayable === 'cancelled' || answer.notPayable === 'begun')
    return <p className="text-brand-900">{PAYMENT_MESSAGES[answer.notPayable]}</p>;
  return null;
}
