// `npm run build:web` and the `prepare` script (npm runs it after `npm ci`): builds the
// web apps into .web-build/ unless a build of the current sources is there already.
import { ensureWebBuild } from '../src/main/web-build.ts';

const dir = await ensureWebBuild((m) => console.log(`surtido: ${m}`));
console.log(`surtido: the shop's build is ${dir}`);
