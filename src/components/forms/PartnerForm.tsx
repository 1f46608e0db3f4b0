import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { PRIVACY_NOTICE_VERSION } from '../../data/legal.ts';
import { showToast } from '../../lib/client/toast.ts';
import { PARTNER_VERDICTS, partnerForm } from '../../lib/forms/partner-application.ts';
import type { PickerKind } from '../appointments/BookingPicker.tsx';
import { DefinedForm } from './FormQuestions.tsx';
import { useLeadForm } from './use-lead-form.ts';

interface Verdict {
  status: 'approved' | 'rejected';
  score: number;
}

interface Props {
  paymentLink: string;
  chatLink: string;
  /** The partner's session as the slot picker offers it (issue #40): booked from the approved view. */
  session?: PickerKind[];
}

// Loaded on the press of "Pagar consulta de $899 MXN", never with the form (issue #40, decision 0059).
const BookingPicker = lazy(() => import('../appointments/BookingPicker.tsx'));

/** /prefiltro-socios: the evaluation form, then the server's verdict. */
export default function PartnerForm({ paymentLink, chatLink, session = [] }: Props) {
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [booking, setBooking] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!verdict) return;
    resultHeading.current?.focus({ preventScroll: true });
    resultHeading.current?.closest('section')?.scrollIntoView({ block: 'start' });
  }, [verdict]);

  function backToForm() {
    setVerdict(null);
    setBooking(false);
    setFormKey((key) => key + 1); // a fresh, empty form
  }

  function pay() {
    // A payment is on record against its appointment (issue #41): where the session can be booked, paying
    // starts by choosing its time, and the booking's "Pagar ahora" opens the checkout of that appointment.
    if (session.length > 0) {
      setBooking(true);
      return;
    }
    window.open(paymentLink, 'pago-consultoria', 'popup,width=800,height=600');
    backToForm();
  }

  function chat() {
    window.open(chatLink, '_blank', 'noopener');
    backToForm();
  }

  if (verdict) {
    const approved = verdict.status === 'approved';
    const text = approved ? PARTNER_VERDICTS.approved : PARTNER_VERDICTS.rejected;
    return (
      <section className="grid scroll-mt-40 gap-5 py-4 text-center sm:py-8" aria-labelledby="partner-result-title">
        <span
          className={`mx-auto inline-flex size-16 items-center justify-center rounded-full text-3xl ${approved ? 'bg-brand-100 text-brand-700' : 'bg-terracotta-500/15 text-terracotta-700'}`}
          aria-hidden="true"
        >
          {approved ? '✓' : '!'}
        </span>
        <h2 id="partner-result-title" ref={resultHeading} tabIndex={-1} className="text-3xl font-bold">
          {text.title}
        </h2>
        <p className="text-lg text-brand-800">{text.text}</p>
        <p className="text-brand-800">{text.next}</p>
        {approved && booking && (
          <section
            className="rounded-3xl bg-white p-5 text-left ring-1 ring-brand-900/10 sm:p-8"
            aria-label={PARTNER_VERDICTS.approved.book}
          >
            <Suspense fallback={<p role="status">{PARTNER_VERDICTS.approved.opening}</p>}>
              <BookingPicker
                kinds={session}
                paymentLink={paymentLink}
                privacyVersion={PRIVACY_NOTICE_VERSION}
                idPrefix="socio-cita-"
              />
            </Suspense>
          </section>
        )}
        <div className="flex flex-col justify-center gap-3 sm:flex-row">
          {/* One way to pay: the session's booking where it can be booked (pay()); once the picker is open,
              its "Pagar ahora" is that way. */}
          {approved && !booking && (
            <button type="button" className="btn btn-accent" onClick={pay}>
              {PARTNER_VERDICTS.approved.pay}
            </button>
          )}
          <button type="button" className="btn btn-primary" onClick={chat}>
            {text.chat}
          </button>
          <a href="/" className="btn btn-outline">
            {PARTNER_VERDICTS.home}
          </a>
        </div>
      </section>
    );
  }

  return <PartnerQuestions key={formKey} onVerdict={setVerdict} />;
}

function PartnerQuestions({ onVerdict }: { onVerdict(verdict: Verdict): void }) {
  const lead = useLeadForm<typeof partnerForm.schema, Verdict>({
    form: partnerForm,
    onSuccess(answer) {
      showToast(answer.status === 'approved' ? partnerForm.toasts.approved : partnerForm.toasts.rejected);
      onVerdict(answer);
    },
    onQueued(_values, _form, queued) {
      // Scored when it reaches us, perhaps on another page: the verdict comes by WhatsApp.
      showToast({ ...queued.toast, description: `${queued.toast.description} ${PARTNER_VERDICTS.byWhatsApp}` });
      return undefined;
    },
  });

  return <DefinedForm form={partnerForm} lead={lead} />;
}
