/**
 * The team (issue #12), shared by the panel (browser) and the functions
 * (server): roles, what the activity log records, and the forms' schemas.
 * Browser-safe: no server import.
 */
import * as z from 'zod/mini';
import { accountEmail, passwordSchema } from '../forms/credentials.ts';
import '../forms/errors.ts';
import { singleLineChecks } from './text.ts';

export const ROLES = ['admin', 'asesor'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABELS: Record<Role, string> = { admin: 'Administrador', asesor: 'Asesor' };

/** The secret of a one-time link (invitation, password reset): 32 random bytes, base64url. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** How long an invitation link works. */
export const INVITATION_HOURS = 72;

/**
 * Invitations one administrator may create per hour, and one address may
 * receive per day (issue #23): each sends an e-mail, and IPs rotate.
 */
export const INVITATIONS_PER_ADMIN_PER_HOUR = 20;
export const INVITATIONS_PER_ADDRESS_PER_DAY = 5;

export const ACTIVITY_KINDS = [
  'setup',
  'sign_in',
  'sign_in_failed',
  'invitation_created',
  'invitation_revoked',
  'invitation_accepted',
  'role_changed',
  'member_deactivated',
  'member_reactivated',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'export',
  'deletion',
  'state_change',
  'assignment',
  'note_deleted',
  'settings_changed',
  'passkey_added',
  'passkey_removed',
  'person_exported',
  'person_erased',
  'marketing_opposition',
  'contact_captured',
  'contact_edited',
  'contacts_merged',
  'whatsapp_template',
  'whatsapp_opt_out',
  'quick_reply_changed',
  'whatsapp_slots',
  'availability_changed',
  'appointment_booked',
  'appointment_attendance',
  'appointment_cancelled',
  'appointment_moved',
  'campaign_spend',
  'payment_refunded',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ACTIVITY_LABELS: Record<ActivityKind, string> = {
  setup: 'Configuración inicial',
  sign_in: 'Inicio de sesión',
  sign_in_failed: 'Inicio de sesión fallido',
  invitation_created: 'Invitación enviada',
  invitation_revoked: 'Invitación revocada',
  invitation_accepted: 'Invitación aceptada',
  role_changed: 'Cambio de rol',
  member_deactivated: 'Miembro desactivado',
  member_reactivated: 'Miembro reactivado',
  password_changed: 'Cambio de contraseña',
  password_reset_requested: 'Recuperación solicitada',
  password_reset: 'Contraseña restablecida',
  export: 'Exportación',
  deletion: 'Eliminación',
  state_change: 'Cambio de estado',
  assignment: 'Asignación',
  note_deleted: 'Nota eliminada',
  settings_changed: 'Ajustes del equipo',
  person_exported: 'Datos de una persona descargados',
  person_erased: 'Persona eliminada (ARCO)',
  marketing_opposition: 'Oposición a promociones y anuncios',
  passkey_added: 'Llave de acceso agregada',
  passkey_removed: 'Llave de acceso eliminada',
  contact_captured: 'Prospecto capturado',
  contact_edited: 'Datos de un prospecto corregidos',
  contacts_merged: 'Prospectos unidos',
  whatsapp_template: 'Plantilla de WhatsApp enviada',
  whatsapp_opt_out: 'Baja de mensajes de WhatsApp',
  quick_reply_changed: 'Respuestas rápidas editadas',
  whatsapp_slots: 'Horarios de cita enviados por WhatsApp',
  availability_changed: 'Disponibilidad para citas editada',
  appointment_booked: 'Cita agendada desde el panel',
  appointment_attendance: 'Asistencia a una cita',
  appointment_cancelled: 'Cita cancelada por el equipo',
  appointment_moved: 'Cita reprogramada por el equipo',
  campaign_spend: 'Gasto de campaña',
  payment_refunded: 'Devolución de un pago registrada',
};

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export const passkeyNameSchema = z
  .string({ error: 'Ponle un nombre a la llave.' })
  .check(
    ...singleLineChecks,
    z.trim(),
    z.minLength(1, 'Ponle un nombre a la llave.'),
    z.maxLength(80, 'Usa como máximo 80 caracteres.'),
  );

export interface Member {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  active: boolean;
  lastSignInAt: string | null;
  createdAt: string;
}

export interface OpenInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
  invitedBy: string | null;
}

export interface TeamView {
  members: Member[];
  invitations: OpenInvitation[];
  /** Whether invitations are also e-mailed (SMTP configured). */
  mailer: boolean;
  /** New contacts go to the active advisers in turn. */
  roundRobin: boolean;
  /** Administrators must sign in with a passkey. */
  adminPasskeyRequired: boolean;
}

export interface ActivityEntry {
  id: string;
  at: string;
  actorId: string | null;
  actorName: string | null;
  kind: ActivityKind;
  summary: string;
  ip: string | null;
}

export interface ActivityPage {
  items: ActivityEntry[];
  nextCursor: string | null;
}

const email = accountEmail('Escribe el correo de la persona.');

const role = z.enum(ROLES, { error: 'Elige un rol: administrador o asesor.' });

export const invitationSchema = z.object({ email, role });

export const acceptInvitationSchema = z.object({
  token: z.string().check(z.regex(LINK_TOKEN, 'El enlace no es válido.')),
  name: z
    .string({ error: 'Escribe tu nombre.' })
    .check(
      ...singleLineChecks,
      z.trim(),
      z.minLength(2, 'Escribe tu nombre.'),
      z.maxLength(120, 'El nombre es demasiado largo (máximo 120 caracteres).'),
    ),
  password: passwordSchema,
});

export const memberChangeSchema = z
  .object({ role: z.optional(role), active: z.optional(z.boolean({ error: 'Indica si la cuenta está activa.' })) })
  .check(z.refine((change) => change.role !== undefined || change.active !== undefined, 'No hay cambios que guardar.'));

export const teamSettingsSchema = z
  .strictObject(
    {
      roundRobin: z.optional(z.boolean({ error: 'Indica si se asigna por turnos.' })),
      adminPasskeyRequired: z.optional(z.boolean({ error: 'Indica si se exige llave de acceso.' })),
    },
    { error: 'Solo se pueden cambiar la asignación por turnos y la llave de acceso obligatoria.' },
  )
  .check(
    z.refine(
      (change) => change.roundRobin !== undefined || change.adminPasskeyRequired !== undefined,
      'No hay cambios que guardar.',
    ),
  );

export type TeamSettingsChange = z.infer<typeof teamSettingsSchema>;

/** Turning the requirement on from a password session would lock its author out of the panel at once. */
export const PASSKEY_REQUIREMENT_NEEDS_PASSKEY =
  'Para exigir llaves de acceso, primero entra con la tuya (agrégala en «Mi cuenta» y vuelve a iniciar sesión con ella).';

export const passwordChangeSchema = z.object({
  current: z
    .string({ error: 'Escribe tu contraseña actual.' })
    .check(z.minLength(1, 'Escribe tu contraseña actual.'), z.maxLength(1024)),
  password: passwordSchema,
});

export const activityFilterSchema = z.object({
  actor: z.optional(z.uuid('Miembro no válido.')),
  kind: z.optional(z.enum(ACTIVITY_KINDS, { error: 'Tipo de actividad no válido.' })),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});

/** How long a password-reset link works. */
export const RESET_MINUTES = 30;

export const recoverySchema = z.object({ email });

export const resetSchema = z.object({
  token: z.string().check(z.regex(LINK_TOKEN, 'El enlace no es válido.')),
  password: passwordSchema,
});

export const RECOVERY_SENT =
  'Si ese correo pertenece a alguien del equipo, le enviamos un enlace para restablecer la contraseña. Vale 30 minutos.';
export const RECOVERY_UNAVAILABLE =
  'La recuperación por correo no está configurada en este sitio. Pide a un administrador que te invite de nuevo, o a quien administra el servidor que ejecute `npm run admin:reset-password -- tu-correo`.';
export const RESET_INVALID =
  'Este enlace para restablecer la contraseña ya no es válido: se usó o venció (dura 30 minutos). Pide uno nuevo.';

export const LAST_ADMIN = 'Debe quedar al menos un administrador activo.';
export const INVITATIONS_PER_ADMIN = `Ya creaste ${INVITATIONS_PER_ADMIN_PER_HOUR} invitaciones en la última hora, el máximo. Espera un poco para crear más.`;
export const INVITATIONS_PER_ADDRESS = `Ese correo ya recibió ${INVITATIONS_PER_ADDRESS_PER_DAY} invitaciones en las últimas 24 horas, el máximo. Si la persona aún tiene la más reciente, puede usarla; si no, inténtalo de nuevo más tarde.`;
export const INVITATION_INVALID =
  'Este enlace de invitación ya no es válido: se usó, venció o fue revocado. Pide una invitación nueva a tu administrador.';
export const WRONG_CURRENT_PASSWORD = 'La contraseña actual no es correcta.';
