// Packs one release's build as a test fixture, tests/fixtures/releases/<commit>.tar.gz
// (scripts/lib/pack-release.ts); `npm run release` does it at each release, with the fixtures
// that go with it.
//
// Usage: vite-node scripts/pack-release.ts <commit>
import { packRelease } from "./lib/pack-release";

const [commit] = process.argv.slice(2);
if (!commit) {
  console.error("usage: vite-node scripts/pack-release.ts <commit>");
  process.exit(2);
}
const { archive, bytes } = packRelease(commit);
console.log(`${archive}: ${Math.round(bytes / 1024)} KiB`);
