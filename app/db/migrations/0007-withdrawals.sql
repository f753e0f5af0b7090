-- Withdrawals of consent made on /privacy/withdraw (docs/decisions/048-withdrawal-on-the-site.md).
-- New tables only: the release before this one never names them during a rolling deploy.
--
-- One row per lead a withdrawal erased: its id (the reference is derived from it), when, and the
-- destinations that may hold it, kept for the team's clean-up until an operator marks it done
-- (`npm run leads -- withdrawn-done ID`). Nothing the visitor typed.
CREATE TABLE withdrawals (
  lead_id uuid PRIMARY KEY,
  withdrawn_at timestamptz NOT NULL,
  holding text[] NOT NULL,
  done_at timestamptz
);
CREATE INDEX withdrawals_open ON withdrawals (withdrawn_at) WHERE done_at IS NULL;

-- Who must still hear of each withdrawn lead: a destination that hears of erasures (the webhook's
-- lead.erased) and the team chat, each with its own retries. The row lock of the transaction that
-- sends decides which replica sends: no clock decides who acts.
CREATE TABLE withdrawal_notices (
  lead_id uuid NOT NULL REFERENCES withdrawals (lead_id) ON DELETE CASCADE,
  target text NOT NULL,
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz NOT NULL,
  queued_at timestamptz NOT NULL,
  PRIMARY KEY (lead_id, target)
);
CREATE INDEX withdrawal_notices_due ON withdrawal_notices (next_attempt_at) WHERE state = 'pending';

-- How many withdrawals erased something, per day (UTC): a count, no personal data.
CREATE TABLE withdrawal_days (
  day date PRIMARY KEY,
  withdrawals integer NOT NULL
);
