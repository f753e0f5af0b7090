// At each release: `npx vite-node scripts/previous-release-schema.ts` writes this release's
// migrations to tests/fixtures/previous-release/schema.sql, so the next release's tests check
// that it only adds to them (tests/unit/previous-release.test.ts). queries.sql is refreshed by
// hand from the statements in the code.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "../app/db/migrations.server";
import { PREVIOUS_RELEASE, schemaFixture } from "../tests/support/previous-release";

const file = join(PREVIOUS_RELEASE, "schema.sql");
writeFileSync(file, schemaFixture(MIGRATIONS));
console.log(`wrote ${file}: migrations ${MIGRATIONS.map((migration) => migration.version).join(", ")}`);
