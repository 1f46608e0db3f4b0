import { z } from 'zod';
import {
  attributionShape,
  consentShape,
  LIMITS,
  nameField,
  optionalChoice,
  phoneField,
  requiredChoice,
  requiredText,
} from './fields.ts';
import {
  INVESTMENT_RANGES,
  LAND_SIZES,
  PARTNER_ROLES,
  PARTNER_STATES,
  PARTNER_TIMELINES,
  PROJECT_TYPES,
  YES_NO,
} from './options.ts';

/**
 * /prefiltro-socios, the partner evaluation. The five answers that decide the
 * score are required: the server cannot score a question left unanswered.
 * The browser never sends the score or the status; the server computes both.
 */
export const partnerApplicationSchema = z.object({
  name: nameField,
  phone: phoneField,
  role: requiredChoice(PARTNER_ROLES, 'Cuéntanos cuál es tu rol en el proyecto.'),
  project_type: optionalChoice(PROJECT_TYPES),
  state: optionalChoice(PARTNER_STATES),
  municipality: requiredText('Escribe el municipio del proyecto.', LIMITS.municipality),
  land_size: optionalChoice(LAND_SIZES),
  investment: requiredChoice(INVESTMENT_RANGES, 'Elige el rango de inversión.'),
  timeline: requiredChoice(PARTNER_TIMELINES, 'Elige cuándo quieres iniciar.'),
  legal_documentation: requiredChoice(YES_NO, 'Dinos si tu documentación legal está lista.'),
  consultancy_payment: requiredChoice(YES_NO, 'Dinos si estás de acuerdo con la consultoría de $899 MXN.'),
  ...attributionShape,
  ...consentShape,
});

export type PartnerApplication = z.output<typeof partnerApplicationSchema>;
