import type { Toast } from '../client/toast.ts';

/** The toasts of spec section 8, word for word (accents restored). */
export const MESSAGES = {
  quickQuote: {
    missing: { title: 'Campos requeridos', description: 'Por favor completa tu nombre y WhatsApp' },
    failure: { title: 'Error', description: 'Hubo un problema al enviar tu información. Por favor intenta de nuevo.' },
    success: {
      title: '¡Gracias por tu interés!',
      description: 'Te mostramos modelos y rangos de precio. Un asesor te contactará pronto.',
    },
  },
  preFilter: {
    missing: {
      title: 'Información incompleta',
      description: 'Por favor completa todos los campos requeridos.',
      variant: 'destructive',
    },
    failure: { title: 'Error', description: 'No se pudo guardar tu información. Inténtalo de nuevo.' },
  },
  estimate: {
    missing: { title: 'Error', description: 'Por favor completa todos los campos requeridos', variant: 'destructive' },
    failure: { title: 'Error', description: 'Hubo un problema al enviar tu solicitud. Por favor intenta de nuevo.' },
    success: { title: '¡Solicitud enviada!', description: 'Un asesor te contactará en las próximas 24 horas' },
  },
  partner: {
    missing: {
      title: 'Información incompleta',
      description: 'Por favor completa todos los campos requeridos.',
      variant: 'destructive',
    },
    failure: {
      title: 'Error al enviar solicitud',
      description: 'No se pudo guardar en este momento, intenta después.',
    },
    approved: { title: '¡Felicitaciones!', description: 'Tu proyecto tiene el perfil que buscamos.' },
    rejected: {
      title: 'Tu proyecto requiere más preparación',
      description: 'Priorizamos proyectos con documentación lista y presupuesto confirmado.',
      variant: 'destructive',
    },
  },
} as const satisfies Record<string, Record<string, Toast>>;
