-- What replicas keep in common besides the leads: the success notices' single-use claims, the
-- limits' counters (rate-limiter-flexible's own table layout), the double-submit fingerprints
-- and the field metrics. No column holds a person's words: a fingerprint is a salted hash, and
-- the salt is made here, once per database, so every replica hashes alike whatever its NOTICE_SECRET.
CREATE TABLE notice_claims (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX notice_claims_expires_at ON notice_claims (expires_at);

CREATE TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);

CREATE TABLE site_salts (
  name text PRIMARY KEY,
  salt text NOT NULL
);
INSERT INTO site_salts (name, salt)
  VALUES ('submission', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));

CREATE TABLE submissions (
  fingerprint text PRIMARY KEY,
  outcome text NOT NULL CHECK (outcome IN ('running', 'kept')),
  result jsonb,
  expires_at timestamptz NOT NULL
);
CREATE INDEX submissions_expires_at ON submissions (expires_at);

CREATE TABLE vitals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL,
  route text NOT NULL,
  device text NOT NULL,
  nav text NOT NULL,
  metric text NOT NULL,
  value double precision NOT NULL,
  rating text NOT NULL,
  cores smallint,
  memory_gb real
);
CREATE INDEX vitals_at ON vitals (at);
