/** Valid request bodies of the three lead endpoints, to vary in tests. */

export const quickQuote = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ana López',
  phone: '999 123 4567',
  email: 'ana@example.mx',
  origin: 'hero',
  ...overrides,
});

export const preFilter = (overrides: Record<string, unknown> = {}) => ({
  source: 'prefiltro',
  name: 'Carlos Pech',
  phone: '(999) 765-4321',
  state: 'Yucatán',
  municipality: 'Progreso',
  land_option: 'tengo-terreno',
  timeline: '0-60-dias',
  objective: 'vivienda-propia',
  ...overrides,
});

export const estimate = (overrides: Record<string, unknown> = {}) => ({
  source: 'estimacion',
  name: 'María Canul',
  phone: '+52 1 999 555 0101',
  email: '',
  terrain_size: '',
  levels: '1',
  finishes: 'basico',
  budget: '',
  ...overrides,
});

export const partnerApplication = (overrides: Record<string, unknown> = {}) => ({
  name: 'Desarrollos del Sureste',
  phone: '9991112233',
  role: 'desarrollador',
  project_type: 'turistico',
  state: 'Quintana Roo',
  municipality: 'Tulum',
  land_size: '1000-5000',
  investment: '2-5m',
  timeline: '0-3-meses',
  legal_documentation: 'si',
  consultancy_payment: 'si',
  ...overrides,
});
