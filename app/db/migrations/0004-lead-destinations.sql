-- Per-lead destinations: EmailJS and the lead webhook. Expand only: the release before this one
-- keeps running on this schema during a rolling deploy, and reads and writes the `leads` row's
-- own columns, which stay EmailJS's record (docs/decisions/024-lead-destinations.md).
--
-- `destinations`: the destinations a lead goes to; NULL for a lead a release before this one
-- stored, which the deliverer adopts (EmailJS as it stored it, plus the others configured now).
-- Leads already stored go where they went: pending, sent and failed ones to EmailJS only.
ALTER TABLE leads ADD COLUMN destinations text[];
UPDATE leads SET destinations = CASE
  WHEN state IN ('pending', 'sent', 'failed') THEN ARRAY['emailjs']
  ELSE '{}'::text[] END;
CREATE INDEX leads_unadopted ON leads (received_at) WHERE destinations IS NULL;

-- One row per lead and destination other than EmailJS: its own state, attempts, last error,
-- retries and lease. Gone with its lead (an erasure, retention).
CREATE TABLE lead_deliveries (
  lead_id uuid NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  destination text NOT NULL,
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz NOT NULL,
  queued_at timestamptz NOT NULL,
  lease_until timestamptz,
  PRIMARY KEY (lead_id, destination)
);
CREATE INDEX lead_deliveries_due ON lead_deliveries (destination, next_attempt_at) WHERE state = 'pending';
CREATE INDEX lead_deliveries_state ON lead_deliveries (state, lead_id);
