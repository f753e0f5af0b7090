-- Every privacy notice text the site has rendered, by its SHA-256: what a lead's
-- privacy_notice names. Each server adds its own renderings (the current version in each
-- language, filled with its ENQUIRY_RETENTION_DAYS and PRIVACY_CONTACT) when it starts; a row is
-- never changed or deleted, so a page served by any replica or release is known to all. A new
-- table: the previous release's statements never name it.
CREATE TABLE privacy_notice_renderings (
  sha256 text PRIMARY KEY,
  version text NOT NULL,
  language text NOT NULL,
  text text NOT NULL,
  first_recorded_at timestamptz NOT NULL DEFAULT now()
);
