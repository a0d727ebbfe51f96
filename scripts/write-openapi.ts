// npm run openapi: regenerates the committed openapi.json from the route schemas.
import fs from 'node:fs';
import { generateOpenApiDocument } from './openapi-document.ts';

fs.writeFileSync(new URL('../openapi.json', import.meta.url), await generateOpenApiDocument());
console.log('wrote openapi.json');
