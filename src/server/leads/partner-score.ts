import { PARTNER_APPROVAL_THRESHOLD, type PartnerApplication } from '../../lib/forms/partner-application.ts';

type Scored = Pick<
  PartnerApplication,
  'role' | 'investment' | 'timeline' | 'legal_documentation' | 'consultancy_payment'
>;

const ROLE_POINTS: Record<Scored['role'], number> = {
  desarrollador: 3,
  inversionista: 3,
  propietario: 2,
  otro: 1,
};

const INVESTMENT_POINTS: Record<Scored['investment'], number> = {
  '5m+': 3,
  '2-5m': 3,
  '1-2m': 2,
  '500k-1m': 1,
  'menor-500k': -2,
};

const TIMELINE_POINTS: Record<Scored['timeline'], number> = {
  '0-3-meses': 2,
  '3-6-meses': 1,
  '6-12-meses': 0,
  'mas-12-meses': 0,
};

/** A "no" to either condition sinks the score far below any threshold. */
const DISQUALIFIED = -999;

export interface PartnerVerdict {
  score: number;
  status: 'approved' | 'rejected';
}

/** Scores a partner application on the server; the browser never decides. */
export function scorePartnerApplication(answers: Scored): PartnerVerdict {
  const score =
    ROLE_POINTS[answers.role] +
    INVESTMENT_POINTS[answers.investment] +
    TIMELINE_POINTS[answers.timeline] +
    (answers.legal_documentation === 'si' ? 2 : DISQUALIFIED) +
    (answers.consultancy_payment === 'si' ? 3 : DISQUALIFIED);
  const approved =
    score >= PARTNER_APPROVAL_THRESHOLD && answers.legal_documentation === 'si' && answers.consultancy_payment === 'si';
  return { score, status: approved ? 'approved' : 'rejected' };
}
