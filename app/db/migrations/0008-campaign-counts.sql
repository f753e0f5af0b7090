-- The campaign counts (docs/decisions/050-campaign-counts.md): one row per day, landing page
-- and campaign, with its counters; no person, no address, no identifier. An empty string is a
-- field the visit did not have (NULL cannot be part of a primary key). Kept 400 days.
CREATE TABLE campaign_counts (
  day date NOT NULL,
  route text NOT NULL DEFAULT '',
  source text NOT NULL DEFAULT '',
  medium text NOT NULL DEFAULT '',
  campaign text NOT NULL DEFAULT '',
  click text NOT NULL DEFAULT '',
  host text NOT NULL DEFAULT '',
  visits integer NOT NULL DEFAULT 0,
  enquiries integer NOT NULL DEFAULT 0,
  spam integer NOT NULL DEFAULT 0,
  whatsapp_taps integer NOT NULL DEFAULT 0,
  dropped_visits integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, route, source, medium, campaign, click, host)
);

-- The weeks whose summary was posted to the team chat: the replica that inserts a week's row posts it.
CREATE TABLE campaign_summaries (
  week date PRIMARY KEY,
  posted_at timestamptz NOT NULL
);
