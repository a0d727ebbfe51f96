// The console's build (web/console, base /console/): see vite.config.ts.
import { webAppConfig } from './vite.config.ts';

export default webAppConfig('console');
