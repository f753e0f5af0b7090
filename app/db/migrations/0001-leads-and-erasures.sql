-- The leads, in every state, and the ids of the leads erased.
-- States and reasons are checked by the code that reads a row, not by CHECK constraints, so a
-- later release can add one without a migration the running release would refuse.
CREATE TABLE leads (
  id uuid PRIMARY KEY,
  received_at timestamptz NOT NULL,
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz NOT NULL,
  queued_at timestamptz NOT NULL,
  enquiry jsonb NOT NULL,
  reason text,
  released_at timestamptz,
  source jsonb,
  lease_until timestamptz
);
CREATE INDEX leads_received ON leads (received_at, id);
CREATE INDEX leads_due ON leads (next_attempt_at) WHERE state = 'pending';
CREATE INDEX leads_state ON leads (state);
CREATE INDEX leads_spam ON leads (reason, received_at) WHERE state = 'spam';
CREATE TABLE erasures (
  id uuid PRIMARY KEY,
  erased_at timestamptz NOT NULL
);
