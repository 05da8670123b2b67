// The web app's endpoint types (web/src/api/endpoints.gen.ts) are generated from the server's route declarations:
// a change of the API without regenerating them (node --import tsx web/build/api-types.ts) fails here, and a
// change the app's calls no longer fit fails its typecheck.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { generateApiTypes, OUTPUT } from '../web/build/api-types.js';

test('the committed endpoint types are the ones the routes generate', () => {
  assert.equal(fs.readFileSync(OUTPUT, 'utf8'), generateApiTypes(), 'run: node --import tsx web/build/api-types.ts');
});
