-- A WhatsApp tap is stored as a row of vitals (metric 'whatsapp-tap', which no metric summary
-- reads) with the campaign its visit came from: a new nullable column, so a release before it
-- keeps inserting its metrics. Docs: docs/decisions/039-enquiry-reference.md.
ALTER TABLE vitals ADD COLUMN campaign text;
