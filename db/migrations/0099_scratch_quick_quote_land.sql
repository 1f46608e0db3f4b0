-- Scratch: whether the quick quote's visitor has land.
ALTER TABLE cotizaciones_rapidas ADD COLUMN has_land text CHECK (has_land IN ('si', 'no'));
