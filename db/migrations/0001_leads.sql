-- Lead tables (docs/product.md §11), users and roles, and the per-IP
-- rate-limit counters. Every option set (docs/product.md §10) is a CHECK constraint,
-- so the database refuses what the forms' zod schemas would refuse.

-- Value types shared by the lead tables.
CREATE DOMAIN person_name AS text CHECK (char_length(VALUE) BETWEEN 1 AND 120);
CREATE DOMAIN place_name AS text CHECK (char_length(VALUE) BETWEEN 1 AND 120);
CREATE DOMAIN phone_e164 AS text CHECK (VALUE ~ '^\+[1-9][0-9]{7,14}$');
CREATE DOMAIN email_address AS text CHECK (char_length(VALUE) <= 254 AND VALUE = lower(VALUE) AND VALUE LIKE '%_@_%');
CREATE DOMAIN utm_value AS text CHECK (char_length(VALUE) <= 200);
CREATE DOMAIN url_value AS text CHECK (char_length(VALUE) <= 2000);
CREATE DOMAIN idempotency_key AS text CHECK (char_length(VALUE) BETWEEN 8 AND 128);
CREATE DOMAIN mx_state AS text CHECK (VALUE IN (
  'Aguascalientes', 'Baja California', 'Baja California Sur', 'Campeche', 'Chiapas', 'Chihuahua',
  'Ciudad de México', 'Coahuila', 'Colima', 'Durango', 'Guanajuato', 'Guerrero', 'Hidalgo', 'Jalisco',
  'México', 'Michoacán', 'Morelos', 'Nayarit', 'Nuevo León', 'Oaxaca', 'Puebla', 'Querétaro',
  'Quintana Roo', 'San Luis Potosí', 'Sinaloa', 'Sonora', 'Tabasco', 'Tamaulipas', 'Tlaxcala',
  'Veracruz', 'Yucatán', 'Zacatecas'));

CREATE TABLE cotizaciones_rapidas (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name             person_name NOT NULL,
  phone            phone_e164 NOT NULL,
  email            email_address,
  origin           text NOT NULL DEFAULT 'unknown' CHECK (origin IN ('hero', 'paths', 'unknown')),
  utm_source       utm_value,
  utm_medium       utm_value,
  utm_campaign     utm_value,
  utm_term         utm_value,
  utm_content      utm_value,
  referrer         url_value,
  landing_path     url_value,
  idempotency_key  idempotency_key UNIQUE,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cotizaciones_rapidas_created_at_idx ON cotizaciones_rapidas (created_at DESC);

CREATE TABLE quote_requests (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source           text NOT NULL CHECK (source IN ('prefiltro', 'estimacion')),
  name             person_name NOT NULL,
  phone            phone_e164 NOT NULL,
  email            email_address,
  -- The pre-filter's list has no Ciudad de México (docs/product.md §10.1).
  state            mx_state CHECK (state <> 'Ciudad de México'),
  municipality     place_name,
  -- Land option from /prefiltro, or si/no from /estimacion (si when a terrain size is given).
  has_land         text NOT NULL CHECK (has_land IN ('tengo-terreno', 'necesito-terreno-y-casa', 'si', 'no')),
  investment       text CHECK (char_length(investment) <= 40),
  -- The pre-filter's start time (the admin table shows it as the timeline).
  need_land_help   text CHECK (need_land_help IN ('0-60-dias', '2-4-meses', 'mas-4-meses')),
  -- The pre-filter's objective (the admin table shows it as the objective).
  house_size       text CHECK (house_size IN ('vivienda-propia', 'renta-corta', 'renta-larga', 'mixto')),
  terrain_size     numeric CHECK (terrain_size > 0 AND terrain_size <= 1000000),
  levels           smallint CHECK (levels IN (1, 2)),
  finishes         text CHECK (finishes IN ('basico', 'medio', 'premium')),
  budget           text CHECK (budget IN ('Aún no lo sé', '300k-500k', '500k-800k', '800k-1.2M', '1.2M+')),
  timeline         text CHECK (timeline IN ('1-3 meses')),
  objective        text CHECK (objective IN ('cotizacion')),
  utm_source       utm_value,
  utm_medium       utm_value,
  utm_campaign     utm_value,
  utm_term         utm_value,
  utm_content      utm_value,
  referrer         url_value,
  landing_path     url_value,
  idempotency_key  idempotency_key UNIQUE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  -- Each source writes its own columns (docs/product.md §11.2).
  CONSTRAINT quote_requests_shape CHECK (
    (source = 'prefiltro' AND municipality IS NOT NULL
      AND has_land IN ('tengo-terreno', 'necesito-terreno-y-casa'))
    OR (source = 'estimacion' AND levels IS NOT NULL AND finishes IS NOT NULL AND budget IS NOT NULL
      AND has_land IN ('si', 'no') AND has_land = CASE WHEN terrain_size IS NULL THEN 'no' ELSE 'si' END)
  )
);
CREATE INDEX quote_requests_created_at_idx ON quote_requests (created_at DESC);

CREATE TABLE partner_applications (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name                 person_name NOT NULL,
  phone                phone_e164 NOT NULL,
  role                 text NOT NULL CHECK (role IN ('desarrollador', 'inversionista', 'propietario', 'otro')),
  project_type         text CHECK (project_type IN ('residencial', 'turistico', 'comercial', 'mixto')),
  state                mx_state,
  municipality         place_name NOT NULL,
  land_size            text CHECK (land_size IN ('500-1000', '1000-5000', '5000+')),
  investment           text NOT NULL CHECK (investment IN ('500k-1m', '1-2m', '2-5m', '5m+', 'menor-500k')),
  timeline             text NOT NULL CHECK (timeline IN ('0-3-meses', '3-6-meses', '6-12-meses', 'mas-12-meses')),
  legal_documentation  text NOT NULL CHECK (legal_documentation IN ('si', 'no')),
  consultancy_payment  text NOT NULL CHECK (consultancy_payment IN ('si', 'no')),
  score                integer NOT NULL,
  status               text NOT NULL CHECK (status IN ('approved', 'rejected')),
  utm_source           utm_value,
  utm_medium           utm_value,
  utm_campaign         utm_value,
  utm_term             utm_value,
  utm_content          utm_value,
  referrer             url_value,
  landing_path         url_value,
  idempotency_key      idempotency_key UNIQUE,
  created_at           timestamptz NOT NULL DEFAULT now(),
  -- Approval needs the threshold and both "si" answers (docs/product.md §9).
  CONSTRAINT partner_applications_status CHECK (
    (status = 'approved') = (score >= 8 AND legal_documentation = 'si' AND consultancy_payment = 'si')
  )
);
CREATE INDEX partner_applications_created_at_idx ON partner_applications (created_at DESC);

CREATE TABLE users (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email          text NOT NULL CHECK (email = lower(email) AND char_length(email) BETWEEN 3 AND 254),
  password_hash  text NOT NULL CHECK (password_hash LIKE '$2%'),
  created_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT users_email_key UNIQUE (email)
);

CREATE TABLE user_roles (
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role        text NOT NULL CHECK (role IN ('admin')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, role)
);
-- At most one administrator: the one-time setup relies on this index.
CREATE UNIQUE INDEX user_roles_single_admin_idx ON user_roles (role) WHERE role = 'admin';

-- Fixed-window counters for the per-IP limits (leads now, logins later).
CREATE TABLE rate_limit_counters (
  bucket        text NOT NULL,
  subject       text NOT NULL,
  window_start  timestamptz NOT NULL,
  hits          integer NOT NULL DEFAULT 1,
  PRIMARY KEY (bucket, subject, window_start)
);
CREATE INDEX rate_limit_counters_window_start_idx ON rate_limit_counters (window_start);
