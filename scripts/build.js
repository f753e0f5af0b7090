/** `npm run build`: the production build into build/ and public/, every step of scripts/lib/build.js. */
import { runBuild } from "./lib/build.js";

runBuild();
